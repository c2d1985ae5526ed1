import { Command, CommanderError } from 'commander';
import type { ValueType } from '../config/value-types.js';
import { didYouMean } from '../core/nearest-word.js';
import { UsageError } from '../errors.js';
import { packageVersion } from '../infra/package-info.js';
import { helpFooter, type HelpRow } from '../ui/help-footer.js';

/**
 * The one way a command line is built, for every binary and every subcommand:
 * help and version on stdout, the same help layout (options, then notes, then
 * examples and exit codes last), and every parse error thrown as a UsageError
 * (exit 2) with the same hint, which runMain reports once. Commander itself
 * prints nothing on error.
 */
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
}

export interface CommandHelp {
  description: string;
  /** Text between the option list and the examples: syntax, what the command leaves behind… */
  notes?: string;
  examples: readonly HelpRow[];
  exitCodes: readonly HelpRow[];
  /** Top-level commands print their version with -V. */
  version?: string;
}

export const processIo: CommandIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** What every usage error ends with: where to read the options of the command that refused. */
export function usageHint(commandPath: string): string {
  return `Run ${commandPath} --help to see every option.`;
}

/** `ralph run`, not just `run`: the words a user types to reach the command. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

const FINISHED = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

/**
 * A word where a command with subcommands expects none is most likely a
 * mistyped subcommand (`ralph demoo`): name it and the nearest command,
 * instead of commander's "too many arguments".
 */
function unknownCommandMessage(command: Command, error: CommanderError): string | undefined {
  if (error.code !== 'commander.excessArguments' || command.commands.length === 0) return undefined;
  const word = command.args[command.registeredArguments.length];
  if (word === undefined) return undefined;
  const names = command.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  const near = didYouMean(word, names);
  return `unknown command "${word}"${near === '' ? `; the commands are ${names.join(', ')}` : near}`;
}

export function createCommand(name: string, io: CommandIo, help: CommandHelp): Command {
  const command = new Command(name).description(help.description);
  if (help.version !== undefined) command.version(help.version, '-V, --version', 'print the version');
  command
    .helpOption('-h, --help', 'show this help')
    .allowExcessArguments(false)
    .configureOutput({ writeOut: io.out, writeErr: io.err, outputError: () => undefined })
    .exitOverride((error) => {
      if (FINISHED.has(error.code)) throw error;
      throw new UsageError(unknownCommandMessage(command, error) ?? error.message.replace(/^error:\s*/i, ''), usageHint(commandPath(command)));
    })
    .addHelpText('after', `${help.notes ?? ''}${helpFooter(help.examples, help.exitCodes)}`);
  return command;
}

/** A binary of its own (ralph-setup, ralph-stats…): a command whose -V prints the version of the installed Ralph. */
export function createBinaryCommand(name: string, io: CommandIo, help: Omit<CommandHelp, 'version'>): Command {
  return createCommand(name, io, { ...help, version: packageVersion() });
}

/**
 * Parses argv with the program (and its subcommands, whose actions run here).
 * Returns false when help or the version was printed and the command is done.
 */
export async function parseArgv(program: Command, argv: readonly string[]): Promise<boolean> {
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return true;
  } catch (error) {
    if (error instanceof CommanderError && FINISHED.has(error.code)) return false;
    throw error;
  }
}

/** A flag's value read with a config value type; a bad value is a usage error naming the flag. */
export function parseFlagValue<T>(flag: string, raw: string, type: ValueType<T>): T {
  const parsed = type.parse(raw);
  if (!parsed.ok) throw new UsageError(`invalid value for ${flag}: "${raw}"; expected ${parsed.expected}`);
  return parsed.value;
}
