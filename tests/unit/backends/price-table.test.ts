import { describe, expect, it } from 'vitest';
import { estimateCost, modelPrice } from '../../../src/backends/price-table.js';
import { MODEL_PRICES } from '../../../src/backends/prices.js';

const usage = (input: number, output: number, cacheRead = 0, cacheCreation = 0) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadInputTokens: cacheRead,
  cacheCreationInputTokens: cacheCreation,
});

describe('modelPrice', () => {
  it('finds a model by its exact name, ignoring case and a provider prefix', () => {
    expect(modelPrice('gpt-5')).toBe(MODEL_PRICES['gpt-5']);
    expect(modelPrice('openai/GPT-5-mini')).toBe(MODEL_PRICES['gpt-5-mini']);
  });

  it('prices a dated or suffixed name as its longest listed prefix', () => {
    expect(modelPrice('gpt-5-codex-2025-09-15')).toBe(MODEL_PRICES['gpt-5-codex']);
    expect(modelPrice('gemini-2.5-flash-lite-preview-06-17')).toBe(MODEL_PRICES['gemini-2.5-flash-lite']);
    expect(modelPrice('gemini-2.5-flash-001')).toBe(MODEL_PRICES['gemini-2.5-flash']);
    // The preview names newer CLIs run by default.
    expect(modelPrice('gemini-3-flash-preview')).toBe(MODEL_PRICES['gemini-3-flash']);
    expect(modelPrice('gemini-3.1-pro-preview-customtools')).toBe(MODEL_PRICES['gemini-3.1-pro']);
    expect(modelPrice('gpt-5.4-mini-2026-03-05')).toBe(MODEL_PRICES['gpt-5.4-mini']);
  });

  it('never prices a newer model as an older one whose name it starts with', () => {
    // gpt-5.6 is not gpt-5 (a different price); only a "-" suffix marks a variant of a listed model.
    expect(modelPrice('gpt-5.6-sol')).toBeUndefined();
    expect(modelPrice('gpt-5.55')).toBeUndefined();
    expect(modelPrice('gemini-3.2-pro')).toBeUndefined();
  });

  it('knows nothing of an unlisted model, an empty name or a name that only starts like one', () => {
    expect(modelPrice('my-local-llama')).toBeUndefined();
    expect(modelPrice('')).toBeUndefined();
    expect(modelPrice('gpt-50')).toBeUndefined();
  });
});

describe('estimateCost', () => {
  it('adds input, cache reads, cache writes and output at their own prices, marked estimated', () => {
    // gpt-5: 1.25 in, 0.125 cached, 10 out per million; no cache-write price, so writes cost input.
    expect(estimateCost('gpt-5', usage(1_000_000, 100_000, 2_000_000, 400_000))).toEqual({
      usd: 1.25 + 0.25 + 0.5 + 1,
      source: 'estimated',
    });
    // claude-sonnet-4-5 charges cache writes at 3.75.
    expect(estimateCost('claude-sonnet-4-5', usage(0, 0, 0, 1_000_000))?.usd).toBeCloseTo(3.75, 10);
  });

  it('gives no figure for a model it does not know', () => {
    expect(estimateCost('unknown-model', usage(10, 10))).toBeUndefined();
  });
});
