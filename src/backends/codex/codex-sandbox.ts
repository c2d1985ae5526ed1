import type { SandboxAgentFacts } from '../../core/sandbox-policy.js';

/**
 * What the Codex CLI needs of a sandbox. It keeps its state databases, sessions and logs in
 * ~/.codex (or $CODEX_HOME), under names that change between versions, and installs its own
 * system skills there: the folder stays writable, but not what configures it (config.toml names
 * MCP servers, notify commands and model providers), its instructions and rules, or its login.
 */
export const CODEX_SANDBOX: SandboxAgentFacts = {
  configDirs: [
    {
      path: '~/.codex',
      variable: 'CODEX_HOME',
      readOnly: ['config.toml', 'auth.json', 'AGENTS.md', 'AGENTS.override.md', 'rules/', 'prompts/', 'hooks.json', '.env'],
      credentials: ['auth.json', '.env'],
    },
  ],
  hosts: ['api.openai.com', 'chatgpt.com', 'auth.openai.com'],
  baseUrlVariables: ['OPENAI_BASE_URL'],
};
