import { describe, expect, it } from 'vitest';
import { capMessages, clipText } from '../../../src/core/message-bounds.js';

describe('clipText', () => {
  it.each([
    ['short', 80, 'short'],
    ['x'.repeat(80), 80, 'x'.repeat(80)],
    ['x'.repeat(81), 80, `${'x'.repeat(80)}…`],
    ['abcdef', 3, 'abc…'],
    // Never half a surrogate pair: "😀" is two UTF-16 units.
    ['ab😀cd', 3, 'ab…'],
  ])('%s (max %i)', (text, max, expected) => {
    expect(clipText(text, max)).toBe(expected);
  });

  it('shows a 5 MB value by its first 80 characters', () => {
    expect(clipText('k'.repeat(5 * 1024 * 1024))).toHaveLength(81);
  });
});

describe('capMessages', () => {
  it.each([
    [0, 0],
    [20, 20],
    [21, 21],
    [200_000, 21],
  ])('%i messages → %i lines', (count, lines) => {
    const out = capMessages(
      Array.from({ length: count }, (_, i) => `m${i}`),
      'unknown keys',
    );
    expect(out).toHaveLength(lines);
    if (count > 20) expect(out[20]).toBe(`… and ${count - 20} more unknown keys`);
  });
});
