import { ExitCode } from '../errors.js';

/**
 * What each of Ralph's exit codes means, in the words help texts and the
 * monitor's closing line use. Scripts and CI rely on these numbers, so the
 * wording lives in one place.
 */
export const EXIT_CODE_MEANINGS: ReadonlyArray<readonly [number, string]> = [
  [ExitCode.Completed, 'completed'],
  [ExitCode.RuntimeError, 'runtime error'],
  [ExitCode.Usage, 'usage or configuration error'],
  [ExitCode.CircuitOpen, 'circuit breaker open'],
  [ExitCode.PermissionDenied, 'permission denied'],
  [ExitCode.UsageLimit, 'usage or rate limit, stopped'],
  [ExitCode.VerifyAborted, 'verify gate aborted or exhausted'],
  [ExitCode.LimitReached, 'a limit reached (loops, cost, runtime)'],
  [ExitCode.Sigint, 'interrupted (Ctrl+C)'],
  [ExitCode.Sigterm, 'terminated (SIGTERM)'],
];

/** One exit code in words; codes Ralph never sets itself are named as such. */
export function describeExitCode(code: number): string {
  const known = EXIT_CODE_MEANINGS.find(([n]) => n === code);
  if (known) return known[1];
  if (code > 128 && code < 160) return `ended by signal ${code - 128}`;
  return 'unexpected exit code';
}
