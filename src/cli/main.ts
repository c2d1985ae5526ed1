import { errorMessage, ExitCode, isRalphError } from '../errors.js';
import { tolerateClosedOutput } from './closed-pipes.js';
import { redactProcessOutput } from './redacted-output.js';

/**
 * Runs a command's entry function and turns its outcome into a process exit
 * code. This is the only place that maps errors to exit codes and messages.
 */
export async function runMain(command: (argv: string[]) => Promise<number>): Promise<void> {
  tolerateClosedOutput();
  redactProcessOutput(process.env);
  let code: number;
  try {
    code = await command(process.argv.slice(2));
  } catch (error) {
    code = reportError(error, (text) => process.stderr.write(text));
  }
  process.exitCode = code;
}

export function reportError(error: unknown, write: (text: string) => void): number {
  if (isRalphError(error)) {
    write(`Error: ${error.message}\n`);
    if (error.hint) write(`${error.hint}\n`);
    return error.exitCode;
  }
  if (error instanceof Error && (error as { code?: unknown }).code === 'commander.helpDisplayed') return ExitCode.Completed;
  write(`Unexpected error: ${errorMessage(error)}\n`);
  if (error instanceof Error && error.stack && process.env['RALPH_DEBUG']) write(`${error.stack}\n`);
  write('This is a bug in Ralph; please report it with the command you ran and .ralph/logs/ralph.log.\n');
  return ExitCode.RuntimeError;
}
