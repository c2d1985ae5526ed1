import type { ProcessRunner, RunOptions, RunResult } from '../../src/ports.js';

/**
 * A ProcessRunner that runs nothing: a table says what each command answers.
 * Each row names a command as a person would type it ('git rev-parse
 * --show-toplevel'), matched against the start of the command line, or as a
 * RegExp; the first row that matches answers. git's `-c key=value` settings are
 * left out of the command line that rows are matched against, so a row does not
 * depend on the hooks and signing settings every git call of Ralph's carries.
 * A command no row matches fails the test.
 */
export interface FakeCommand {
  command: string | RegExp;
  /** What the command answers; a function sees the call. Unset fields: exit 0, no output. */
  result?: Partial<RunResult> | ((call: FakeCall) => Partial<RunResult>);
}

export interface FakeCall {
  file: string;
  args: readonly string[];
  options: RunOptions;
  /** The command line rows are matched against. */
  line: string;
}

export interface FakeRunner extends ProcessRunner {
  /** Every call, in order. */
  calls: FakeCall[];
  /** The command lines called, in order. */
  lines(): string[];
}

/** The command line without git's `-c key=value` settings. */
function commandLine(file: string, args: readonly string[]): string {
  const words = [file];
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '-c' && file === 'git') i += 1;
    else words.push(args[i] as string);
  }
  return words.join(' ');
}

function matches(command: string | RegExp, line: string): boolean {
  return typeof command === 'string' ? line === command || line.startsWith(`${command} `) : command.test(line);
}

export function fakeRunner(table: readonly FakeCommand[]): FakeRunner {
  const calls: FakeCall[] = [];
  return {
    calls,
    lines: () => calls.map((c) => c.line),
    async run(file, args, options) {
      const call: FakeCall = { file, args, options, line: commandLine(file, args) };
      calls.push(call);
      const row = table.find((r) => matches(r.command, call.line));
      if (!row) throw new Error(`fakeRunner: no row for "${call.line}"`);
      const answer = typeof row.result === 'function' ? row.result(call) : (row.result ?? {});
      return { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 1, ...answer };
    },
  };
}
