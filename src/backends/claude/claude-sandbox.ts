import type { SandboxAgentFacts } from '../../core/sandbox-policy.js';

/**
 * What Claude Code needs of a sandbox. It writes its sessions, shell snapshots and caches in
 * ~/.claude (or $CLAUDE_CONFIG_DIR) on every call; what it reads from there and never needs to
 * write during a run stays read-only: settings (hooks, MCP servers, permissions), instructions,
 * commands and agents, installed plugins, and its credentials.
 */
export const CLAUDE_SANDBOX: SandboxAgentFacts = {
  configDirs: [
    {
      path: '~/.claude',
      variable: 'CLAUDE_CONFIG_DIR',
      readOnly: [
        'settings.json',
        'settings.local.json',
        'CLAUDE.md',
        'hooks/',
        'commands/',
        'agents/',
        'skills/',
        'output-styles/',
        'plugins/cache/',
        'plugins/marketplaces/',
        'plugins/installed_plugins.json',
        'plugins/known_marketplaces.json',
        'plugins/config.json',
        '.credentials.json',
      ],
      credentials: ['.credentials.json'],
    },
    { path: '~/.claude.json', file: true },
  ],
  hosts: ['api.anthropic.com'],
  baseUrlVariables: ['ANTHROPIC_BASE_URL'],
};
