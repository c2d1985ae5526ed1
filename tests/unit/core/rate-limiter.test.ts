import { describe, expect, it } from 'vitest';
import {
  WINDOW_MS,
  apiRetryDelayMs,
  checkCall,
  emptyRateState,
  pruneCalls,
  recordCallStart,
  recordCallTokens,
  windowUsage,
  type RateLimits,
  type RateState,
} from '../../../src/core/rate-limiter.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const LIMITS: RateLimits = { maxCallsPerHour: 100, maxTokensPerHour: 0 };

/** `count` calls, the first `firstAgo` ms before NOW, one second apart. */
function calls(count: number, firstAgo = 30 * MINUTE, tokens = 0): RateState {
  return { calls: Array.from({ length: count }, (_, i) => ({ at: NOW - firstAgo + i * SECOND, tokens })) };
}

describe('checkCall: calls per hour over a sliding window (U§13.8)', () => {
  it.each([
    [0, true],
    [99, true],
    [100, false],
    [150, false],
  ])('%i calls in the window with a limit of 100 → allowed: %s', (count, allowed) => {
    expect(checkCall(calls(count), NOW, LIMITS).ok).toBe(allowed);
  });

  it('a call exactly 60 minutes old has left the window', () => {
    const state: RateState = { calls: Array.from({ length: 100 }, () => ({ at: NOW - WINDOW_MS, tokens: 0 })) };
    expect(checkCall(state, NOW, LIMITS)).toEqual({ ok: true });
  });

  it('a call one millisecond younger than 60 minutes still counts', () => {
    const state: RateState = { calls: Array.from({ length: 100 }, () => ({ at: NOW - WINDOW_MS + 1, tokens: 0 })) };
    expect(checkCall(state, NOW, LIMITS)).toEqual({ ok: false, waitUntil: NOW + 1, reason: 'calls: 100/100' });
  });

  it('at the limit, waits until the oldest call leaves the window', () => {
    const state = calls(100);
    expect(checkCall(state, NOW, LIMITS)).toEqual({ ok: false, waitUntil: NOW - 30 * MINUTE + WINDOW_MS, reason: 'calls: 100/100' });
  });

  it('over the limit, waits until enough calls have left to make room for one', () => {
    const permit = checkCall(calls(150), NOW, LIMITS);
    expect(permit).toEqual({ ok: false, waitUntil: NOW - 30 * MINUTE + 50 * SECOND + WINDOW_MS, reason: 'calls: 150/100' });
    if (!permit.ok) expect(checkCall(calls(150), permit.waitUntil, LIMITS).ok).toBe(true);
  });

  it('the window slides: one minute later, calls that were 59 minutes old are gone', () => {
    const state = calls(100, 59 * MINUTE + 30 * SECOND);
    expect(checkCall(state, NOW, LIMITS).ok).toBe(false);
    expect(checkCall(state, NOW + MINUTE, LIMITS).ok).toBe(true);
  });

  it('order of the stored calls does not matter', () => {
    const state = calls(100);
    const shuffled: RateState = { calls: [...state.calls].reverse() };
    expect(checkCall(shuffled, NOW, LIMITS)).toEqual(checkCall(state, NOW, LIMITS));
  });
});

describe('checkCall: tokens per hour', () => {
  it('a token limit of 0 means no limit', () => {
    expect(checkCall(calls(3, 30 * MINUTE, 5_000_000), NOW, { maxCallsPerHour: 100, maxTokensPerHour: 0 })).toEqual({ ok: true });
  });

  it('under the token limit a call is allowed', () => {
    expect(checkCall(calls(2, 30 * MINUTE, 400), NOW, { maxCallsPerHour: 100, maxTokensPerHour: 1000 }).ok).toBe(true);
  });

  it('tokens at or over the limit block until enough tokens leave the window', () => {
    const state: RateState = {
      calls: [
        { at: NOW - 50 * MINUTE, tokens: 600 },
        { at: NOW - 20 * MINUTE, tokens: 500 },
      ],
    };
    expect(checkCall(state, NOW, { maxCallsPerHour: 100, maxTokensPerHour: 1000 })).toEqual({
      ok: false,
      waitUntil: NOW + 10 * MINUTE,
      reason: 'tokens: 1100/1000',
    });
    expect(checkCall({ calls: [{ at: NOW - MINUTE, tokens: 1000 }] }, NOW, { maxCallsPerHour: 100, maxTokensPerHour: 1000 }).ok).toBe(false);
  });

  it('the call cap still blocks when tokens are fine', () => {
    expect(checkCall(calls(5, 30 * MINUTE, 1), NOW, { maxCallsPerHour: 5, maxTokensPerHour: 1_000_000 })).toMatchObject({ ok: false, reason: 'calls: 5/5' });
  });

  it('names both limits when both are reached, and waits for the later release', () => {
    const state: RateState = {
      calls: [
        { at: NOW - 50 * MINUTE, tokens: 10 },
        { at: NOW - 10 * MINUTE, tokens: 2000 },
      ],
    };
    const permit = checkCall(state, NOW, { maxCallsPerHour: 2, maxTokensPerHour: 1000 });
    expect(permit).toEqual({ ok: false, waitUntil: NOW + 50 * MINUTE, reason: 'calls: 2/2, tokens: 2010/1000' });
  });
});

describe('recording calls', () => {
  it('recordCallStart counts the call at once, with no tokens yet', () => {
    const s = recordCallStart(emptyRateState(), NOW);
    expect(s.calls).toEqual([{ at: NOW, tokens: 0 }]);
    expect(windowUsage(s, NOW).calls).toBe(1);
  });

  it('recordCallStart drops calls that left the window', () => {
    const s = recordCallStart({ calls: [{ at: NOW - 2 * WINDOW_MS, tokens: 5 }] }, NOW);
    expect(s.calls).toEqual([{ at: NOW, tokens: 0 }]);
  });

  it('recordCallTokens adds to the latest call', () => {
    let s = recordCallStart(recordCallStart(emptyRateState(), NOW - MINUTE), NOW);
    s = recordCallTokens(s, 150);
    s = recordCallTokens(s, 50);
    expect(s.calls).toEqual([
      { at: NOW - MINUTE, tokens: 0 },
      { at: NOW, tokens: 200 },
    ]);
  });

  it.each([0, -5])('recordCallTokens(%i) changes nothing', (tokens) => {
    const s = recordCallStart(emptyRateState(), NOW);
    expect(recordCallTokens(s, tokens)).toBe(s);
  });

  it('recordCallTokens without any call changes nothing', () => {
    const s = emptyRateState();
    expect(recordCallTokens(s, 100)).toBe(s);
  });

  it('keeps a saved wait and the API retry state while recording', () => {
    const s: RateState = { calls: [], wait: { reason: 'usage_limit', until: NOW + MINUTE, message: 'limit' }, apiRetry: { attempts: 1, lastError: '429' } };
    const next = recordCallTokens(recordCallStart(s, NOW), 10);
    expect(next.wait).toEqual(s.wait);
    expect(next.apiRetry).toEqual(s.apiRetry);
  });
});

describe('windowUsage and pruneCalls', () => {
  it('reports calls, tokens and when the oldest call leaves', () => {
    const state: RateState = {
      calls: [
        { at: NOW - 2 * WINDOW_MS, tokens: 999 },
        { at: NOW - 40 * MINUTE, tokens: 10 },
        { at: NOW - 10 * MINUTE, tokens: 20 },
      ],
    };
    expect(windowUsage(state, NOW)).toEqual({ calls: 2, tokens: 30, nextReset: NOW + 20 * MINUTE });
  });

  it('an empty window has no next reset', () => {
    expect(windowUsage(emptyRateState(), NOW)).toEqual({ calls: 0, tokens: 0 });
  });

  it('returns the same object when nothing left the window', () => {
    const s = calls(3);
    expect(pruneCalls(s, NOW)).toBe(s);
  });

  it('drops calls recorded far in the future (a clock that jumped back)', () => {
    const s: RateState = {
      calls: [
        { at: NOW + 2 * WINDOW_MS, tokens: 0 },
        { at: NOW + MINUTE, tokens: 0 },
      ],
    };
    expect(pruneCalls(s, NOW).calls).toEqual([{ at: NOW + MINUTE, tokens: 0 }]);
  });
});

describe('apiRetryDelayMs (seed 002 "Automatic retry on API rate limit errors")', () => {
  it.each([
    [1, 5 * MINUTE],
    [2, 10 * MINUTE],
    [3, 15 * MINUTE],
    [0, 0],
    [-1, 0],
  ])('attempt %i waits %i ms with the default 300 s step', (attempt, ms) => {
    expect(apiRetryDelayMs(attempt, 300)).toBe(ms);
  });

  it('follows a configured step', () => {
    expect(apiRetryDelayMs(2, 30)).toBe(60 * SECOND);
    expect(apiRetryDelayMs(3, 0)).toBe(0);
  });
});
