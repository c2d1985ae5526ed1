import type { SandboxAgentFacts } from '../../core/sandbox-policy.js';

/**
 * What OpenCode needs of a sandbox. It writes its database, logs and snapshots under
 * ~/.local/share/opencode, locks under ~/.local/state/opencode and downloads under
 * ~/.cache/opencode. Its configuration folder holds its settings, plugins (code it loads),
 * commands, agents and instructions: read-only, like its login in auth.json.
 * OpenCode talks to whichever provider its config names: add that host with --sandbox-allow-domain.
 */
export const OPENCODE_SANDBOX: SandboxAgentFacts = {
  configDirs: [
    {
      path: '~/.config/opencode',
      readOnly: ['opencode.json', 'opencode.jsonc', 'config.json', 'AGENTS.md', 'plugin/', 'plugins/', 'command/', 'agent/', 'mode/', 'tool/'],
    },
    { path: '~/.local/share/opencode', readOnly: ['auth.json', 'mcp-auth.json'], credentials: ['auth.json', 'mcp-auth.json'] },
    { path: '~/.local/state/opencode' },
    { path: '~/.cache/opencode' },
  ],
  hosts: ['opencode.ai', 'models.dev'],
  baseUrlVariables: [],
};
