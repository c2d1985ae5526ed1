const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quotes one argument for a POSIX shell (and fish): words stay bare, the rest single-quoted. */
export function shellQuote(arg: string): string {
  if (SAFE_WORD.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command line a POSIX shell splits back into exactly these words. */
export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
