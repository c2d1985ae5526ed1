import type { PermissionDenial } from '../../core/agent-output.js';
import { ExitCode } from '../../errors.js';
import { digestText } from '../../core/text-digest.js';
import { formatDuration } from '../../core/time-format.js';
import type { ConversionRun } from './run-conversion.js';

export interface ConversionFailure {
  message: string;
  exitCode: number;
}

function takeFirstLine(text: string, max = 300): string {
  const line = text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

function takeLastLine(text: string): string {
  return takeFirstLine(text.split('\n').reverse().join('\n'));
}

/**
 * Why a conversion run failed, or undefined when Claude finished normally
 * (whether it produced the files is checked separately). A JSON result with
 * `is_error` is a failure even with exit code 0.
 */
export function describeConversionFailure(run: ConversionRun, timeoutMs: number): ConversionFailure | undefined {
  const said = takeFirstLine(digestText(run.output.text));
  switch (run.end) {
    case 'spawn_failed':
      return {
        message: `Claude Code could not be started: ${run.failure ?? 'unknown error'}`,
        exitCode: run.failure?.startsWith('command not found') ? ExitCode.Usage : ExitCode.RuntimeError,
      };
    case 'interrupted':
      return { message: 'the conversion was interrupted', exitCode: ExitCode.Sigint };
    case 'timeout':
      return { message: `Claude did not finish the conversion within ${timeoutMs < 1000 ? `${timeoutMs} ms` : formatDuration(timeoutMs / 1000)}`, exitCode: ExitCode.RuntimeError };
    case 'exited':
      break;
  }
  if (run.output.isError === true) {
    const status = run.output.apiErrorStatus !== undefined ? ` (API status ${run.output.apiErrorStatus})` : '';
    return { message: `Claude reported an error${status}: ${said || run.output.subtype || 'no details'}`, exitCode: ExitCode.RuntimeError };
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
  const named = [...new Set(denials.map((d) => (d.command ? `${d.toolName} (${d.command.slice(0, 80)})` : d.toolName)))];
  const shown = named.slice(0, 5).join(', ') + (named.length > 5 ? ` and ${named.length - 5} more` : '');
  return `Claude Code was denied ${shown}: ralph-import allows only Read, Write, Edit and mkdir.`;
}
