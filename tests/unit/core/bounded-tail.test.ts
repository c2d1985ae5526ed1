import { describe, expect, it } from 'vitest';
import { BoundedTail } from '../../../src/core/bounded-tail.js';

describe('BoundedTail', () => {
  const text = Array.from({ length: 400 }, (_, i) => `line ${i}\n`).join('');

  it.each([1, 7, 15, 16, 17, 40, 1000, text.length])('keeps the last characters whatever the chunk size (%i)', (size) => {
    const tail = new BoundedTail(16);
    for (let i = 0; i < text.length; i += size) tail.write(text.slice(i, i + size));
    expect(tail.value()).toBe(text.slice(-16));
    expect(tail.length).toBe(text.length);
    expect(tail.truncated).toBe(true);
  });

  it('keeps all of a short output', () => {
    const tail = new BoundedTail(16);
    tail.write('short');
    tail.write(' text');
    expect(tail.value()).toBe('short text');
    expect(tail.truncated).toBe(false);
  });
});
