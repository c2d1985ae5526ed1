import { describe, expect, it } from 'vitest';
import { resetTimeFromHeaders } from '../../../../src/backends/opencode/opencode-reset-time.js';

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
