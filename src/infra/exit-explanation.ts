import { constants as osConstants } from 'node:os';

/**
 * Exit statuses of a shell command in plain words, so exit 127 reads as
 * "command not found": 127 and 126 name the command, 128+n names
 * the signal.
 */
const SIGNAL_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(osConstants.signals).map(([name, number]) => [number, name] as const));

const SIGNAL_MEANING: Readonly<Record<string, string>> = {
  SIGKILL: 'killed — often the system running out of memory',
  SIGTERM: 'terminated',
  SIGINT: 'interrupted',
  SIGSEGV: 'crashed (segmentation fault)',
  SIGABRT: 'aborted',
  SIGBUS: 'crashed (bus error)',
  SIGFPE: 'crashed (arithmetic error)',
  SIGILL: 'crashed (illegal instruction)',
  SIGPIPE: 'wrote to a closed pipe',
  SIGHUP: 'hung up',
};

export function signalName(number: number): string | undefined {
  return SIGNAL_NAMES.get(number);
}

function describeSignal(name: string): string {
  const meaning = SIGNAL_MEANING[name];
  return meaning ? `${name}, ${meaning}` : name;
}

/** First word of a shell command, skipping leading `VAR=value` assignments. */
export function firstWord(command: string): string {
  const words = command.trim().split(/\s+/);
  const word = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) ?? words[0] ?? '';
  return word.replace(/^['"]|['"]$/g, '');
}

/**
 * The name the shell could not find, read from its own message when possible
 * (`sh: 1: foo: not found`, `bash: line 1: foo: command not found`), since the
 * failing word may be anywhere in `a && b`.
 */
function missingCommandName(command: string, stderr: string): string {
  const match = /(?:^|\n)[^\n]*?:\s*([^\s:][^:\n]*):\s*(?:command )?not found\s*$/m.exec(stderr);
  return match?.[1]?.trim() || firstWord(command);
}

function notExecutableName(command: string, stderr: string): string {
  const match = /(?:^|\n)[^\n]*?:\s*([^\s:][^:\n]*):\s*Permission denied\s*$/m.exec(stderr);
  return match?.[1]?.trim() || firstWord(command);
}

/** Plain-words explanation of an exit, or undefined when the exit code says it all. */
export function explainExit(command: string, exitCode: number | null, signal: string | null, stderr: string): string | undefined {
  if (exitCode === 127) return `command not found: ${missingCommandName(command, stderr)}`;
  if (exitCode === 126) return `not executable (permission denied or not a program): ${notExecutableName(command, stderr)}`;
  if (exitCode !== null && exitCode > 128 && exitCode <= 128 + 64) {
    const name = signalName(exitCode - 128);
    if (name) return `ended by signal ${describeSignal(name)} (exit ${exitCode} = 128 + ${exitCode - 128})`;
  }
  if (exitCode === null && signal) return `the shell was ended by signal ${describeSignal(signal)}`;
  return undefined;
}
