import { join } from 'node:path';
import { ROOT } from './run-cli.js';

/**
 * Where the real agent CLIs are: their own package in tests/agent-clis/, installed by the
 * integration tier's setup (scripts/install-agent-clis.mjs), never by the root install.
 */
export const AGENT_CLI_BIN = join(ROOT, 'tests', 'agent-clis', 'node_modules', '.bin');

/** The path of one real agent CLI. */
export function agentCli(name: 'claude' | 'codex' | 'gemini' | 'opencode'): string {
  return join(AGENT_CLI_BIN, name);
}
