import { tolerateClosedOutput } from './closed-pipes.js';
import { asksForJson, reportError, type JsonErrorBody } from './error-report.js';
import { redactProcessOutput } from './redacted-output.js';

export interface MainOptions {
  /** The command has a --json flag: when it is given, an error is one JSON document on stdout too. */
  json?: boolean;
  /** Fields an earlier JSON error of this command had, kept beside `error` so existing scripts keep working. */
  jsonErrorFields?: (error: JsonErrorBody) => Record<string, unknown>;
}

/**
 * Runs a command's entry function and turns its outcome into a process exit
 * code. This is the only place that maps errors to exit codes and messages
 * (the policy itself is reportError).
 */
export async function runMain(command: (argv: string[]) => Promise<number>, options: MainOptions = {}): Promise<void> {
  tolerateClosedOutput();
  redactProcessOutput(process.env);
  const argv = process.argv.slice(2);
  let code: number;
  try {
    code = await command(argv);
  } catch (error) {
    const report = reportError(error, {
      json: options.json === true && asksForJson(argv),
      debug: Boolean(process.env['RALPH_DEBUG']),
      ...(options.jsonErrorFields ? { jsonErrorFields: options.jsonErrorFields } : {}),
    });
    if (report.stdout !== undefined) process.stdout.write(report.stdout);
    process.stderr.write(report.stderr);
    code = report.exitCode;
  }
  process.exitCode = code;
}
