import { EXIT_CODE_MEANINGS } from '../core/exit-code-meaning.js';

/**
 * The end of every command's --help: a few commands to copy, then what each
 * exit code means, so scripts and people read the same contract.
 */
export type HelpRow = readonly [string, string];

function table(rows: readonly HelpRow[], indent = '  '): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}  ${right}`.trimEnd());
}

export function helpFooter(examples: readonly HelpRow[], exitCodes: readonly HelpRow[]): string {
  // The comment goes above the command, so long commands stay copyable on one line.
  const lines = examples.flatMap(([cmd, what]) => [`  # ${what}`, `  $ ${cmd}`]);
  return ['', 'Examples:', ...lines, '', 'Exit codes:', ...table(exitCodes), ''].join('\n');
}

/** Every exit code of a loop run (ralph, ralph run, ralph demo, ralph --monitor). */
export const LOOP_EXIT_CODES: readonly HelpRow[] = EXIT_CODE_MEANINGS.map(([code, meaning]) => [String(code), meaning]);
