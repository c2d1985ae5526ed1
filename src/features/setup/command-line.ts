import { Command, CommanderError } from 'commander';
import { UsageError } from '../../errors.js';
import type { ValueType } from '../../config/value-types.js';
import { packageVersion } from '../../infra/package-info.js';

/**
 * A commander program for one of the project commands: help and version on
 * stdout, every parse error turned into a UsageError (exit code 2) that names
 * the bad flag, and nothing printed by commander itself on error.
 */
export function createCommand(name: string, description: string): Command {
  const program = new Command(name);
  program
    .description(description)
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .helpOption('-h, --help', 'show this help and exit')
    .exitOverride()
    .allowExcessArguments(false)
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      writeErr: (text) => process.stderr.write(text),
      outputError: () => undefined,
    });
  return program;
}

/** Parses argv; returns false when help or the version was printed and the command is done. */
export function parseCommand(program: Command, argv: readonly string[]): boolean {
  try {
    program.parse([...argv], { from: 'user' });
    return true;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return false;
      throw new UsageError(error.message.replace(/^error:\s*/i, ''), `Run ${program.name()} --help for usage.`);
    }
    throw error;
  }
}

/** A flag's value read with a config value type; a bad value is a usage error naming the flag. */
export function parseFlagValue<T>(flag: string, raw: string, type: ValueType<T>): T {
  const parsed = type.parse(raw);
  if (!parsed.ok) throw new UsageError(`invalid value for ${flag}: "${raw}"; expected ${parsed.expected}`);
  return parsed.value;
}
