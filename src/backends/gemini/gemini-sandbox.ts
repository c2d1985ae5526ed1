import type { SandboxAgentFacts } from '../../core/sandbox-policy.js';

/**
 * What the Gemini CLI needs of a sandbox. It writes its chats, history and project list in
 * ~/.gemini on every call; its settings (MCP servers, tool discovery commands, hooks), its
 * instructions, commands and extensions, its .env and its login stay read-only.
 */
export const GEMINI_SANDBOX: SandboxAgentFacts = {
  configDirs: [
    {
      path: '~/.gemini',
      readOnly: [
        'settings.json',
        'GEMINI.md',
        'commands/',
        'extensions/',
        'policies/',
        'agents/',
        '.env',
        'oauth_creds.json',
        'google_accounts.json',
        'mcp-oauth-tokens.json',
      ],
      credentials: ['oauth_creds.json', 'google_accounts.json', 'mcp-oauth-tokens.json', '.env'],
    },
  ],
  hosts: ['generativelanguage.googleapis.com', 'cloudcode-pa.googleapis.com', 'oauth2.googleapis.com'],
  baseUrlVariables: ['GOOGLE_GEMINI_BASE_URL'],
};
