import { describe, expect, it } from 'vitest';
import { CharRing } from '../../../src/core/char-ring.js';

function ringOf(size: number, pieces: string[]): CharRing {
  const ring = new CharRing(size);
  for (const piece of pieces) ring.write(piece);
  return ring;
}

describe('CharRing', () => {
  it('holds all of a text shorter than its size', () => {
    const ring = ringOf(10, ['ab', 'cd']);
    expect(ring.text()).toBe('abcd');
    expect(ring.length).toBe(4);
  });

  it('holds the last characters of a longer text, whatever the pieces', () => {
    const text = Array.from({ length: 300 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    for (const size of [1, 3, 7, 64, 299]) {
      const pieces: string[] = [];
      for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
      expect(ringOf(50, pieces).text()).toBe(text.slice(-50));
    }
  });

  it('takes a piece longer than the ring in one write', () => {
    expect(ringOf(5, ['xy', 'abcdefghij']).text()).toBe('fghij');
  });

  it('keeps the UTF-16 units as written, surrogate pairs and lone halves alike', () => {
    const text = 'é😀中\ud800z';
    expect(ringOf(16, [text]).text()).toBe(text);
    expect(ringOf(3, ['😀', '中', '\ud800']).text()).toBe('\ude00中\ud800');
  });

  it('copies text that mixes ASCII and other characters across the end of the ring', () => {
    const text = Array.from({ length: 400 }, (_, i) => (i % 9 === 0 ? 'é✓😀' : `line ${i} `)).join('');
    for (const size of [5, 17, 64, 333]) {
      const pieces: string[] = [];
      for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
      expect(ringOf(97, pieces).text()).toBe(text.slice(-97));
    }
  });

  it('reads back a tail larger than one decoding block', () => {
    const text = 'x'.repeat(20_000) + 'y'.repeat(30_000);
    expect(ringOf(40_000, [text.slice(0, 12_345), text.slice(12_345)]).text()).toBe(text.slice(-40_000));
  });

  it('a ring of size 0 holds nothing', () => {
    const ring = ringOf(0, ['abc']);
    expect(ring.text()).toBe('');
    expect(ring.length).toBe(0);
  });
});
