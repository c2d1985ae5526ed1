import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearestWord } from '../../../src/core/nearest-word.js';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['demo', 'demo', 0],
    ['demoo', 'demo', 1],
    ['verfy', 'verify', 1],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
  ])('%s → %s is %i', (a, b, expected) => {
    expect(editDistance(a, b)).toBe(expected);
    expect(editDistance(b, a)).toBe(expected);
  });
});

describe('nearestWord', () => {
  const commands = ['run', 'demo', 'test', 'dashboard', 'mcp', 'queue'];
  it.each([
    ['demoo', 'demo'],
    ['DEMO', 'demo'],
    ['quue', 'queue'],
    ['dashbord', 'dashboard'],
    ['xyz', undefined],
    // Two edits on a four-letter word make another word, not a typo.
    ['tent', 'test'],
    ['mine', undefined],
  ])('%s → %s', (typed, expected) => {
    expect(nearestWord(typed, commands)).toBe(expected);
  });

  it('finds a .ralphrc key one letter off', () => {
    expect(nearestWord('MAX_CALS_PER_HOUR', ['MAX_CALLS_PER_HOUR', 'MAX_TOKENS_PER_HOUR', 'MAX_LOOPS'])).toBe('MAX_CALLS_PER_HOUR');
  });

  it('says nothing when nothing is near', () => {
    expect(didYouMean('FOO', ['MAX_LOOPS'])).toBe('');
    expect(didYouMean('MAX_LOOP', ['MAX_LOOPS'])).toBe('; did you mean MAX_LOOPS?');
  });
});
