import { ExitCode, RalphError } from '../../errors.js';
import type { ProcessRunner } from '../../ports.js';

const INSTALL_HINT =
  'Install Claude Code with `npm install -g @anthropic-ai/claude-code` (see https://docs.claude.com/en/docs/claude-code), ' +
  'or point CLAUDE_CODE_CMD in .ralphrc at it (for example CLAUDE_CODE_CMD="npx @anthropic-ai/claude-code"). ' +
  'To try Ralph without Claude, use --backend mock or run `ralph demo`.';

/** -1, 0, 1 like a comparator; numeric per part. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/**
 * `claude --version` before the first iteration: a missing or too old CLI is
 * one clear message and exit code 2, not a loop of failures.
 * Returns the version found (or undefined when it could not be read).
 */
export async function checkClaudeCli(
  runner: ProcessRunner,
  command: readonly string[],
  minVersion: string,
  cwd: string,
  warn: (m: string) => void,
): Promise<string | undefined> {
  const [file, ...prefix] = command;
  if (!file) throw new RalphError('CLAUDE_CODE_CMD is empty.', ExitCode.Usage, INSTALL_HINT);
  const result = await runner.run(file, [...prefix, '--version'], { cwd, timeoutMs: 30_000 });
  if (result.spawnError !== undefined || result.exitCode === 127) {
    throw new RalphError(`Claude Code CLI not found: '${command.join(' ')}' could not be started.`, ExitCode.Usage, INSTALL_HINT);
  }
  if (result.timedOut) {
    warn(`'${command.join(' ')} --version' did not answer within 30 s; continuing without a version check`);
    return undefined;
  }
  if (result.exitCode !== 0) {
    const detail = (result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ');
    throw new RalphError(
      `'${command.join(' ')} --version' failed (exit code ${result.exitCode ?? 'none'}): ${detail.slice(0, 300)}`,
      ExitCode.Usage,
      INSTALL_HINT,
    );
  }
  const version = /(\d+\.\d+\.\d+)/.exec(result.stdout.split('\n', 1)[0] ?? '')?.[1];
  if (version === undefined) {
    warn(`Could not read the Claude Code version from '${command.join(' ')} --version'; assuming it is compatible`);
    return undefined;
  }
  if (compareVersions(version, minVersion) < 0) {
    throw new RalphError(
      `Claude Code ${version} is older than ${minVersion}, the oldest version Ralph supports.`,
      ExitCode.Usage,
      'Update it with `npm install -g @anthropic-ai/claude-code@latest` (or `claude update`), then run ralph again.',
    );
  }
  return version;
}
