import { describe, expect, it } from 'vitest';
import type { RateState } from '../../../../src/core/rate-limiter.js';
import { rateStateSchema } from '../../../../src/state/documents/rate-limit.js';
import { parseOrReason } from '../../../helpers/parse-document.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const MINUTE = 60_000;

const normalizeRateState = (value: unknown) => parseOrReason(rateStateSchema, value);

describe('.rate_limit_state schema', () => {
  it.each([null, 'x', 5, [], {}, { calls: 'many' }])('rejects %j', (value) => {
    expect(typeof normalizeRateState(value)).toBe('string');
  });

  it('keeps good calls and drops junk ones', () => {
    expect(
      normalizeRateState({ calls: [{ at: NOW, tokens: 5 }, { at: 'noon' }, null, { at: NOW + 1, tokens: -3 }, { at: Number.NaN }, { at: NOW + 2 }] }),
    ).toEqual({
      calls: [
        { at: NOW, tokens: 5 },
        { at: NOW + 1, tokens: 0 },
        { at: NOW + 2, tokens: 0 },
      ],
    });
  });

  it('the saved wait and apiRetry survive a save and load', () => {
    const state: RateState = {
      calls: [{ at: NOW, tokens: 1 }],
      wait: { reason: 'api_retry', until: NOW + 5 * MINUTE, message: 'Rate limit detected, attempt 1/3' },
      apiRetry: { attempts: 2, lastError: 'rate_limit_error' },
    };
    expect(normalizeRateState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it.each(['rate_limit', 'usage_limit', 'api_retry'] as const)('accepts the wait reason %s', (reason) => {
    const s = normalizeRateState({ calls: [], wait: { reason, until: NOW } });
    expect(s).toEqual({ calls: [], wait: { reason, until: NOW, message: '' } });
  });

  it('drops a wait with an unknown reason or no end time', () => {
    expect(normalizeRateState({ calls: [], wait: { reason: 'nap', until: NOW } })).toEqual({ calls: [] });
    expect(normalizeRateState({ calls: [], wait: { reason: 'rate_limit', until: 'later' } })).toEqual({ calls: [] });
  });

  it('repairs a damaged apiRetry', () => {
    expect(normalizeRateState({ calls: [], apiRetry: { attempts: -2, lastError: 42 } })).toEqual({ calls: [], apiRetry: { attempts: 0, lastError: '' } });
    expect(normalizeRateState({ calls: [], apiRetry: { attempts: 1.5 } })).toEqual({ calls: [] });
  });
});
