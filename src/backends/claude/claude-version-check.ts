import type { ProcessRunner } from '../../ports.js';
import { agentCliAbout, checkAgentCli } from '../cli-version-check.js';

/** `claude --version` before the first iteration (see checkAgentCli). */
export function checkClaudeCli(
  runner: ProcessRunner,
  command: readonly string[],
  minVersion: string,
  cwd: string,
  warn: (m: string) => void,
): Promise<string | undefined> {
  return checkAgentCli({ runner, command, minVersion, cwd, warn, ...agentCliAbout('claude') });
}
