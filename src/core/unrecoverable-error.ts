/**
 * Agent failures that no retry can fix: the credentials are wrong or gone, or
 * the account cannot pay. Retrying them only burns the hour (the CLI retries
 * each call itself first) and ends in a circuit breaker that blames the
 * project, so the loop stops at the first one and says what to do.
 */
export type UnrecoverableKind = 'invalid_api_key' | 'login_expired' | 'credit_balance';

export interface UnrecoverableError {
  kind: UnrecoverableKind;
  /** What to do before running Ralph again. */
  advice: string;
}

const ADVICE: Record<UnrecoverableKind, string> = {
  invalid_api_key:
    'Claude Code rejected its credentials. Check the API key it uses (ANTHROPIC_API_KEY, or the key configured in Claude Code), or log in with `claude /login`; then run ralph again.',
  login_expired: 'The Claude Code login has expired or was revoked. Log in again with `claude /login`, then run ralph again.',
  credit_balance:
    'The API account has no credit left. Add credits under Billing in the Anthropic Console (console.anthropic.com), or log in with a subscription (`claude /login`); then run ralph again.',
};

const RULES: ReadonlyArray<readonly [UnrecoverableKind, RegExp]> = [
  ['credit_balance', /\bcredit balance is too low\b/i],
  ['login_expired', /\bOAuth token (?:has )?(?:been )?(?:revoked|expired)\b|\btoken (?:has been )?revoked\b|\bPlease run \/login\b/i],
  ['invalid_api_key', /\binvalid (?:x-)?api[ _-]key\b|\bauthentication_error\b|\binvalid bearer token\b/i],
];

/**
 * Reads a failed call's error message (and HTTP status, when the CLI gave
 * one) for a failure no retry fixes.
 */
export function detectUnrecoverable(message: string, status?: number): UnrecoverableError | undefined {
  for (const [kind, pattern] of RULES) if (pattern.test(message)) return { kind, advice: ADVICE[kind] };
  // A 401 is an authentication failure whatever the wording.
  if (status === 401) return { kind: 'invalid_api_key', advice: ADVICE.invalid_api_key };
  return undefined;
}
