import type { ProcessRunner } from '../../ports.js';
import { checkAgentCli, type AgentCliAbout } from '../cli-version-check.js';

const INSTALL_HINT =
  'Install Claude Code with `npm install -g @anthropic-ai/claude-code` (see https://docs.claude.com/en/docs/claude-code), ' +
  'or point CLAUDE_CODE_CMD in .ralphrc at it (for example CLAUDE_CODE_CMD="npx @anthropic-ai/claude-code"). ' +
  'To try Ralph without Claude, use --backend mock or run `ralph demo`.';

/** What the version check's messages say about Claude Code. */
export const CLAUDE_CLI_ABOUT: AgentCliAbout = {
  agent: 'Claude Code',
  commandKey: 'CLAUDE_CODE_CMD',
  installHint: INSTALL_HINT,
  updateHint: 'Update it with `npm install -g @anthropic-ai/claude-code@latest` (or `claude update`), then run ralph again.',
};

/** `claude --version` before the first iteration (see checkAgentCli), in the agent's own environment `env`. */
export function checkClaudeCli(
  runner: ProcessRunner,
  command: readonly string[],
  minVersion: string,
  cwd: string,
  warn: (m: string) => void,
  env: Record<string, string>,
): Promise<string | undefined> {
  return checkAgentCli({ runner, command, minVersion, cwd, env, warn, ...CLAUDE_CLI_ABOUT });
}
