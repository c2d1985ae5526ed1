/**
 * What each of Ralph's exit codes means, in the words help texts and the
 * monitor's closing line use. Scripts and CI rely on these numbers, so the
 * wording lives in one place.
 */
export const EXIT_CODE_MEANINGS: ReadonlyArray<readonly [number, string]> = [
  [0, 'completed'],
  [1, 'runtime error'],
  [2, 'usage or configuration error'],
  [3, 'circuit breaker open'],
  [4, 'permission denied'],
  [5, 'usage or rate limit, stopped'],
  [6, 'verify gate aborted or exhausted'],
  [7, 'a limit reached (loops, cost, runtime)'],
  [130, 'interrupted (Ctrl+C)'],
  [143, 'terminated (SIGTERM)'],
];

/** One exit code in words; codes Ralph never sets itself are named as such. */
export function describeExitCode(code: number): string {
  const known = EXIT_CODE_MEANINGS.find(([n]) => n === code);
  if (known) return known[1];
  if (code > 128 && code < 160) return `ended by signal ${code - 128}`;
  return 'unexpected exit code';
}
