import { describe, expect, it } from 'vitest';
import { BoundedTail } from '../../../src/core/bounded-tail.js';

function tailOf(max: number, pieces: string[]): BoundedTail {
  const tail = new BoundedTail(max);
  for (const piece of pieces) tail.write(piece);
  return tail;
}

describe('BoundedTail', () => {
  it('keeps all of a short text', () => {
    const tail = tailOf(10, ['ab', 'cd']);
    expect(tail.value()).toBe('abcd');
    expect(tail.truncated).toBe(false);
  });

  it('keeps the last characters whatever the size of the pieces', () => {
    const text = 'abcdefghijklmnopqrstuvwxyz'.repeat(20);
    for (const size of [1, 7, 10, 11, 64, text.length]) {
      const pieces: string[] = [];
      for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
      const tail = tailOf(10, pieces);
      expect(tail.value()).toBe(text.slice(-10));
      expect(tail.length).toBe(text.length);
      expect(tail.truncated).toBe(true);
    }
  });

  it('a piece as long as the tail replaces what was kept', () => {
    expect(tailOf(4, ['xyz', 'abcd']).value()).toBe('abcd');
    expect(tailOf(4, ['xyz', 'abcdef', 'g']).value()).toBe('defg');
  });
});
