import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageVersion } from '../infra/package-info.js';
import { stdoutIsTerminal, writeStdout } from './direct-stdout.js';

/**
 * `ralph --version` and `ralph --help` answered before commander and the
 * command modules load: they are asked most and by scripts, and loading the
 * parser costs more than the answer itself. The help text is what commander
 * printed to a pipe when the package was built (scripts/render-help.mjs).
 */

/**
 * Where the build leaves the help text, beside the bundled command. Paths come
 * from `import.meta.dirname` / `filename`, which the CommonJS bundle reads as
 * `__dirname` / `__filename`, rather than from a file URL it would build first.
 */
export const RENDERED_HELP = join(import.meta.dirname, 'ralph-help.txt');

const VERSION_FLAGS = new Set(['--version', '-V']);
const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * The file this code runs from. The build writes the whole bundle, parser
 * included, before it renders the help: a newer file may declare other options.
 */
const THIS_MODULE = import.meta.filename;

/**
 * The rendered help, or undefined when this build has none or a newer bundle
 * (built without rendering) may have changed the options since it was rendered.
 */
function renderedHelp(): string | undefined {
  try {
    if (statSync(RENDERED_HELP).mtimeMs < statSync(THIS_MODULE).mtimeMs) return undefined;
    return readFileSync(RENDERED_HELP, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * What `ralph` prints for these arguments without parsing them, or undefined
 * when the parser must answer. Help goes through the parser on a terminal:
 * commander wraps it to the terminal's width there, and only a pipe gets the
 * fixed width the build rendered. `toTerminal` is asked for help alone: on a
 * character device it loads node:tty, which --version has no use for.
 */
export function quickAnswer(argv: readonly string[], toTerminal: () => boolean, help: () => string | undefined = renderedHelp): string | undefined {
  if (argv.length !== 1) return undefined;
  const flag = argv[0] as string;
  if (VERSION_FLAGS.has(flag)) return `${packageVersion()}\n`;
  if (HELP_FLAGS.has(flag) && !toTerminal()) return help();
  return undefined;
}

/** Prints the quick answer when there is one; true when the command is done. */
export function answerQuickly(argv: readonly string[]): boolean {
  const answer = quickAnswer(argv, stdoutIsTerminal);
  if (answer === undefined) return false;
  writeStdout(answer);
  return true;
}
