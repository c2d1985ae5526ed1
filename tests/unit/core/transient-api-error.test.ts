import { describe, expect, it } from 'vitest';
import { describeTransientCause, transientCause } from '../../../src/core/transient-api-error.js';

describe('transientCause: what kind of passing API trouble an error is', () => {
  it.each([
    [429, 'Rate limit reached for requests', 'rate_limit'],
    [529, 'Overloaded', 'overloaded'],
    [undefined, 'API Error: 529 overloaded_error: Overloaded', 'overloaded'],
    [500, 'An internal error has occurred.', 'server_error'],
    [503, 'Service Unavailable', 'server_error'],
    // Codex 0.169 words an HTTP 500 so, and gives no status.
    [undefined, 'We’re currently experiencing high demand, which may cause temporary errors. (exit code 1)', 'server_error'],
    [undefined, 'stream error: Too Many Requests', 'rate_limit'],
    [undefined, 'fetch failed', 'unavailable'],
  ] as const)('%s %j → %s', (status, message, cause) => {
    expect(transientCause(status, message)).toBe(cause);
  });

  it('a server error is never called a rate limit', () => {
    expect(describeTransientCause('server_error', 500)).toBe("API server error (HTTP 500), a passing fault on the provider's side");
    expect(describeTransientCause('server_error', undefined)).not.toMatch(/rate limit/i);
  });
});
