import { describe, expect, it } from 'vitest';
import { describeCost, isCostUnknown } from '../../../src/core/cost-display.js';

describe('describeCost', () => {
  it.each([
    [{ usd: 0.0313, estimated: false, unknownCalls: 0 }, '$0.0313'],
    [{ usd: 12.345, estimated: true, unknownCalls: 0 }, '$12.35 (estimated)'],
    [{ usd: 0, estimated: false, unknownCalls: 2 }, 'unknown for 2 calls (no price known for the model)'],
    [{ usd: 0.5, estimated: true, unknownCalls: 1 }, '$0.5000 (estimated) + unknown for 1 call (no price known for the model)'],
  ])('%j → %s', (figures, text) => {
    expect(describeCost(figures)).toBe(text);
  });
});

describe('isCostUnknown', () => {
  it('is a call that used tokens and came without a cost', () => {
    expect(isCostUnknown(undefined, { inputTokens: 10, outputTokens: 1 })).toBe(true);
    expect(isCostUnknown({ usd: 0.01 }, { inputTokens: 10, outputTokens: 1 })).toBe(false);
    // Nothing used, nothing to price (a call refused before the model answered).
    expect(isCostUnknown(undefined, { inputTokens: 0, outputTokens: 0 })).toBe(false);
    expect(isCostUnknown(undefined, undefined)).toBe(false);
  });
});
