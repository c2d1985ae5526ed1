import type { AgentResult, PermissionDenial } from '../../../agent-result.js';
import { CLAUDE_AGENT } from '../../../backends/claude/claude-agent.js';
import { ExitCode } from '../../../errors.js';
import { digestText } from '../../../core/text-digest.js';
import { formatDuration } from '../../../core/time-format.js';

export interface ConversionFailure {
  message: string;
  exitCode: number;
  /** What to do about it, when the failure has a known fix. */
  hint?: string;
}

/** Claude Code that could not be started is most often not installed. */
const INSTALL_HINT = `Install Claude Code with \`${CLAUDE_AGENT.install}\` and log in (run \`claude\` once), or set CLAUDE_CODE_CMD to the command that starts it.`;

function takeFirstLine(text: string, max = 300): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

function takeLastLine(text: string): string {
  return takeFirstLine(text.split('\n').reverse().join('\n'));
}

/**
 * Why a conversion run failed, or undefined when Claude finished normally
 * (whether it produced the files is checked separately). A
 * result the agent flagged as an error is a failure even with exit code 0.
 */
export function describeConversionFailure(run: AgentResult, timeoutMs: number): ConversionFailure | undefined {
  const said = takeFirstLine(digestText(run.text));
  switch (run.end) {
    case 'spawn_failed': {
      const why = run.outcome.kind === 'fatal' || run.outcome.kind === 'failed' ? run.outcome.message : 'unknown error';
      return {
        message: `Claude Code could not be started: ${why}`,
        exitCode: run.outcome.kind === 'fatal' ? ExitCode.Usage : ExitCode.RuntimeError,
        hint: INSTALL_HINT,
      };
    }
    case 'interrupted':
      return { message: 'the conversion was interrupted', exitCode: ExitCode.Sigint };
    case 'timeout':
      return {
        message: `Claude did not finish the conversion within ${timeoutMs < 1000 ? `${timeoutMs} ms` : formatDuration(timeoutMs / 1000)}`,
        exitCode: ExitCode.RuntimeError,
      };
    case 'exited':
      break;
  }
  if (run.reportedError === true) {
    const status = run.apiStatus !== undefined ? ` (API status ${run.apiStatus})` : '';
    return { message: `Claude reported an error${status}: ${said || run.resultKind || 'no details'}`, exitCode: ExitCode.RuntimeError };
  }
  if (run.exitCode !== 0) {
    const detail = takeLastLine(run.stderrTail) || said;
    return { message: `Claude exited with code ${String(run.exitCode ?? 'unknown')}${detail ? `: ${detail}` : ''}`, exitCode: ExitCode.RuntimeError };
  }
  return undefined;
}

/**
 * The tools Claude was refused during the conversion, in one sentence, so a
 * failure names the cause instead of only its effect (a missing file).
 */
export function describeDenials(denials: readonly PermissionDenial[]): string | undefined {
  if (denials.length === 0) return undefined;
  const named = [...new Set(denials.map((d) => (d.detail ? `${d.tool} (${d.detail.slice(0, 80)})` : d.tool)))];
  const shown = named.slice(0, 5).join(', ') + (named.length > 5 ? ` and ${named.length - 5} more` : '');
  return `Claude Code was denied ${shown}: ralph-import allows only Read, Write, Edit and mkdir.`;
}
