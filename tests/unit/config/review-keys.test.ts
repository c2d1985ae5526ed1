import { describe, expect, it } from 'vitest';
import { load } from '../support/config.js';

describe('reviewer settings', () => {
  it('are off by default: the loop reviews nothing, with 3 rejections allowed once on', () => {
    expect(load({}).config).toMatchObject({ review: false, reviewBackend: '', reviewModel: '', reviewMax: 3 });
  });

  it.each([
    ['the flag', { flags: { review: true } }],
    ['.ralphrc REVIEW', { rc: 'REVIEW=true\n' }],
    ['.ralphrc RALPH_REVIEW', { rc: 'RALPH_REVIEW=yes\n' }],
    ['the environment', { env: { RALPH_REVIEW: 'true' } }],
  ])('switch on through %s', (_name, inputs) => {
    const loaded = load(inputs);
    expect(loaded.errors).toEqual([]);
    expect(loaded.config.review).toBe(true);
  });

  it('take a backend, a model and a maximum', () => {
    const loaded = load({ flags: { reviewBackend: 'codex', reviewModel: 'gpt-5', reviewMax: '5' } });
    expect(loaded.errors).toEqual([]);
    expect(loaded.config).toMatchObject({ reviewBackend: 'codex', reviewModel: 'gpt-5', reviewMax: 5 });
  });

  it.each([
    [{ flags: { reviewMax: '0' } }, 'invalid value for --review-max', 'a whole number from 1 to 100'],
    [{ flags: { reviewMax: 'three' } }, 'invalid value for --review-max', 'a whole number from 1 to 100'],
    [{ rc: 'REVIEW_MAX=101\n' }, 'REVIEW_MAX', 'a whole number from 1 to 100'],
    [{ flags: { reviewBackend: 'nope' } }, 'invalid value for --review-backend', 'one of claude, codex, gemini, opencode, mock'],
    [{ env: { RALPH_REVIEW: 'maybe' } }, 'RALPH_REVIEW', 'true or false'],
  ])('refuse %j, saying what is accepted', (inputs, where, expected) => {
    const loaded = load(inputs);
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toContain(where);
    expect(loaded.errors[0]).toContain(expected);
  });
});
