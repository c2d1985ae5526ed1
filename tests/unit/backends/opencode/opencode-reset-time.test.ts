import { describe, expect, it } from 'vitest';
import { resetTimeFromBody, resetTimeFromHeaders } from '../../../../src/backends/opencode/opencode-reset-time.js';

const NOW = Date.parse('2026-11-22T12:39:00Z');

describe('resetTimeFromHeaders', () => {
  it('reads retry-after in seconds and as an HTTP date', () => {
    expect(resetTimeFromHeaders({ 'retry-after': '90' }, NOW)).toBe(NOW + 90_000);
    expect(resetTimeFromHeaders({ 'retry-after': 'Sun, 22 Nov 2026 14:39:00 GMT' }, NOW)).toBe(Date.parse('2026-11-22T14:39:00Z'));
  });

  it("reads OpenAI's reset durations and Anthropic's reset times, the latest winning", () => {
    const headers = { 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-reset-tokens': '6m0s', 'anthropic-ratelimit-unified-reset': '2026-11-22T13:00:00Z' };
    expect(resetTimeFromHeaders(headers, NOW)).toBe(Date.parse('2026-11-22T13:00:00Z'));
    expect(resetTimeFromHeaders({ 'x-ratelimit-reset-tokens': '1h2m3.5s' }, NOW)).toBe(NOW + 3_723_500);
    expect(resetTimeFromHeaders({ 'anthropic-ratelimit-unified-reset': String(NOW / 1000 + 60) }, NOW)).toBe(NOW + 60_000);
  });

  it('ignores other headers and values it cannot read', () => {
    expect(resetTimeFromHeaders({ date: 'Sun, 22 Nov 2026 12:39:00 GMT', 'retry-after': 'soon', 'x-ratelimit-reset-tokens': 'later' }, NOW)).toBeUndefined();
  });
});

describe('resetTimeFromBody: the reset the error itself carries', () => {
  it.each([
    ['resets_at in epoch seconds', '{"error":{"type":"usage_limit_reached","resets_at":1795876740}}', 1795876740_000],
    ['resets_in_seconds', '{"error":{"type":"usage_limit_reached","resets_in_seconds":7200}}', NOW + 7_200_000],
    ["Google's RetryInfo delay", '{"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"43200s"}]}}', NOW + 43_200_000],
  ])('%s', (_name, body, expected) => {
    expect(resetTimeFromBody(body, NOW)).toBe(expected);
  });

  it('none in the body: undefined', () => {
    expect(resetTimeFromBody('{"error":{"message":"Rate limit reached"}}', NOW)).toBeUndefined();
    expect(resetTimeFromBody(undefined, NOW)).toBeUndefined();
  });
});
