import { ExitCode } from '../errors.js';

/**
 * What each of Ralph's exit codes means, in the words help texts and the
 * monitor's closing line use. Scripts and CI rely on these numbers, so the
 * wording lives in one place, and a code added to ExitCode does not compile
 * until it has its words here.
 */
const MEANING_OF: { readonly [Name in keyof typeof ExitCode]: string } = {
  Completed: 'completed',
  RuntimeError: 'runtime error',
  Usage: 'usage or configuration error',
  CircuitOpen: 'circuit breaker open',
  PermissionDenied: 'permission denied',
  UsageLimit: 'usage or rate limit, stopped',
  VerifyAborted: 'verify gate aborted or exhausted, or review rejected',
  LimitReached: 'a limit reached (loops, cost, runtime)',
  Sigint: 'interrupted (Ctrl+C)',
  Sigterm: 'terminated (SIGTERM)',
};

/** Every exit code with its meaning, lowest first. */
export const EXIT_CODE_MEANINGS: ReadonlyArray<readonly [number, string]> = (Object.keys(ExitCode) as Array<keyof typeof ExitCode>)
  .map((name) => [ExitCode[name], MEANING_OF[name]] as const)
  .sort(([a], [b]) => a - b);

/** One exit code in words; codes Ralph never sets itself are named as such. */
export function describeExitCode(code: number): string {
  const known = EXIT_CODE_MEANINGS.find(([n]) => n === code);
  if (known) return known[1];
  if (code > 128 && code < 160) return `ended by signal ${code - 128}`;
  return 'unexpected exit code';
}
