import type { ProcessRunner } from '../../ports.js';
import { agentCliAbout, checkAgentCli } from '../cli-version-check.js';
import { CLAUDE_AGENT } from './claude-agent.js';

/** `claude --version` before the first iteration (see checkAgentCli), in the agent's own environment `env`. */
export function checkClaudeCli(
  runner: ProcessRunner,
  command: readonly string[],
  minVersion: string,
  cwd: string,
  warn: (m: string) => void,
  env: Record<string, string>,
): Promise<string | undefined> {
  return checkAgentCli({ runner, command, minVersion, cwd, env, warn, ...agentCliAbout(CLAUDE_AGENT) });
}
