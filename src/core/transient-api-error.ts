/**
 * What kind of passing trouble an agent's API reported, so the retry line names it truly: a
 * rate limit is this user's own pace, an overload (Anthropic's 529) and a server error (any
 * other 5xx) are the provider's. All are retried with the same growing waits.
 */
export type TransientCause = 'rate_limit' | 'overloaded' | 'server_error' | 'unavailable';

const OVERLOADED = /\boverloaded\b/i;
const RATE_LIMIT = /rate[ _-]?limit|too many requests|\b429\b/i;
/** How CLIs word a 5xx when they give no status (Codex 0.169 says "experiencing high demand" for a 500). */
const SERVER_ERROR = /high demand|internal (?:server )?error|server[ _]error|bad gateway|service unavailable|\bUNAVAILABLE\b|\bINTERNAL\b|\b5\d\d\b/;

export function transientCause(status: number | undefined, message: string): TransientCause {
  if (status === 529 || OVERLOADED.test(message)) return 'overloaded';
  if (status !== undefined && status >= 500) return 'server_error';
  if (status === 429) return 'rate_limit';
  if (status === undefined && SERVER_ERROR.test(message)) return 'server_error';
  if (RATE_LIMIT.test(message)) return 'rate_limit';
  return 'unavailable';
}

/** "API server error (HTTP 500), …", "Rate limit detected": how the retry line starts (the status where it tells more than the words). */
export function describeTransientCause(cause: TransientCause, status: number | undefined): string {
  const http = status === undefined ? '' : ` (HTTP ${status})`;
  switch (cause) {
    case 'rate_limit':
      return 'Rate limit detected';
    case 'overloaded':
      return 'API overloaded';
    case 'server_error':
      return `API server error${http}, a passing fault on the provider's side`;
    case 'unavailable':
      return `API temporarily unavailable${http}`;
  }
}
