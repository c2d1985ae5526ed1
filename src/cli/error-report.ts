import { errorMessage, ExitCode, isRalphError, NotAProjectError, UsageError } from '../errors.js';
import { isToolError } from '../features/agent-tools/test/tool-error.js';

/**
 * How a failed command ends: the exit code, the text for stderr and, when the
 * command was asked for JSON, the one document for stdout. Every binary goes
 * through here (runMain), so the same error reads the same everywhere.
 *
 * In JSON mode the document goes to stdout and the human text still goes to
 * stderr: a script reads stdout alone, and a person at a terminal still sees
 * what went wrong and what to do.
 */
export interface ErrorReport {
  exitCode: number;
  stderr: string;
  /** One JSON document and its newline; set only when JSON output was asked for (always for a test tool). */
  stdout?: string;
}

/** The `error` object of the JSON document; `code` is the exit code. */
export interface JsonErrorBody {
  code: number;
  kind: string;
  message: string;
  hint?: string;
}

export interface ReportOptions {
  /** The command was given --json. */
  json: boolean;
  /** RALPH_DEBUG: show where an unexpected error happened. */
  debug: boolean;
  /** Fields an earlier JSON error of this command had, kept beside `error` so existing scripts keep working. */
  jsonErrorFields?: (error: JsonErrorBody) => Record<string, unknown>;
}

const HELP_OR_VERSION = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

/**
 * Commander's errors, told by their code rather than their class: every
 * binary reports errors through here, and one that never parses a command
 * line should not load commander to do so.
 */
function isCommanderError(error: unknown): error is Error & { code: string } {
  if (!(error instanceof Error)) return false;
  const code: unknown = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('commander.');
}

/** A word for the kind of failure, for scripts that branch on more than the exit code. */
function kindOf(error: unknown, exitCode: number): string {
  if (error instanceof UsageError || isCommanderError(error)) return 'usage';
  if (error instanceof NotAProjectError) return 'not_a_project';
  if (!isRalphError(error)) return 'internal';
  if (exitCode === ExitCode.Sigint || exitCode === ExitCode.Sigterm) return 'interrupted';
  return exitCode === ExitCode.Usage ? 'usage' : 'runtime';
}

function textOf(body: JsonErrorBody, lead = 'Error'): string {
  return `${lead}: ${body.message}\n${body.hint ? `${body.hint}\n` : ''}`;
}

function withJson(report: ErrorReport, body: JsonErrorBody, options: ReportOptions): ErrorReport {
  if (!options.json) return report;
  const document = { ...(options.jsonErrorFields?.(body) ?? {}), error: body };
  return { ...report, stdout: `${JSON.stringify(document)}\n` };
}

export function reportError(error: unknown, options: ReportOptions): ErrorReport {
  if (isToolError(error)) {
    // The test tools answer in JSON whatever the flags; their codes are words an agent branches on.
    const exitCode = error.isInputError ? ExitCode.Usage : ExitCode.RuntimeError;
    return {
      exitCode,
      stdout: `${JSON.stringify(error.toJson(), null, 2)}\n`,
      stderr: textOf({ code: exitCode, kind: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) }),
    };
  }
  if (isCommanderError(error) && HELP_OR_VERSION.has(error.code)) return { exitCode: ExitCode.Completed, stderr: '' };
  if (isRalphError(error) || isCommanderError(error)) {
    const exitCode = isRalphError(error) ? error.exitCode : ExitCode.Usage;
    const hint = isRalphError(error) ? error.hint : undefined;
    const body: JsonErrorBody = { code: exitCode, kind: kindOf(error, exitCode), message: error.message.replace(/^error:\s*/i, ''), ...(hint ? { hint } : {}) };
    return withJson({ exitCode, stderr: textOf(body) }, body, options);
  }
  const hint = 'This is a bug in Ralph; please report it with the command you ran and .ralph/logs/ralph.log.';
  const body: JsonErrorBody = { code: ExitCode.RuntimeError, kind: 'internal', message: errorMessage(error), hint };
  const stack = options.debug && error instanceof Error && error.stack ? `${error.stack}\n` : '';
  return withJson({ exitCode: ExitCode.RuntimeError, stderr: `Unexpected error: ${body.message}\n${stack}${hint}\n` }, body, options);
}

/** Whether argv asks for JSON: `--json` among the options (not after `--`). */
export function asksForJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}
