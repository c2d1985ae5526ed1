import { describe, expect, it } from 'vitest';
import { Utf8Batch } from '../../../src/core/utf8-batch.js';

/** A batch whose drains are recorded as text. */
function recorded(capacity: number, reuse: boolean): { batch: Utf8Batch; drained: string[] } {
  const drained: string[] = [];
  const batch = new Utf8Batch({ capacity, reuse, drain: (bytes) => drained.push(bytes.toString('utf8')) });
  return { batch, drained };
}

describe('a UTF-8 batch', () => {
  it('holds pieces until flushed and hands them out as one write', () => {
    const { batch, drained } = recorded(1024, true);
    batch.append('one ');
    batch.append('');
    batch.append('two\n');
    expect(drained).toEqual([]);
    expect(batch.size).toBe(8);
    batch.flush();
    batch.flush();
    expect(drained).toEqual(['one two\n']);
    expect(batch.size).toBe(0);
  });

  it('counts bytes, not characters, and never cuts a character between two writes', () => {
    const { batch, drained } = recorded(16, true);
    for (const piece of ['é', '⚡', '🚀', 'ab', '✅']) batch.append(piece);
    batch.flush();
    expect(drained.join('')).toBe('é⚡🚀ab✅');
    for (const text of drained) expect(text).not.toContain('\uFFFD');
  });

  it('writes what it holds first when a piece might not fit, then a piece too big for any buffer on its own', () => {
    const { batch, drained } = recorded(12, true);
    batch.append('abc');
    batch.append('defg');
    batch.append('0123456789');
    batch.append('z');
    batch.flush();
    expect(drained).toEqual(['abc', 'defg', '0123456789', 'z']);
  });

  it('refills its buffer when the drain is done with it, and leaves a kept write untouched otherwise', () => {
    const kept = (reuse: boolean): string => {
      let first: Buffer | undefined;
      const batch = new Utf8Batch({ capacity: 64, reuse, drain: (bytes) => (first ??= bytes) });
      batch.append('first');
      batch.flush();
      batch.append('later');
      batch.flush();
      return (first as Buffer).toString('utf8');
    };
    // A stream that queues the first write still sends what it was given.
    expect(kept(false)).toBe('first');
    expect(kept(true)).toBe('later');
  });

  it('drops what it holds when cleared', () => {
    const { batch, drained } = recorded(64, true);
    batch.append('gone');
    batch.clear();
    batch.append('kept');
    batch.flush();
    expect(drained).toEqual(['kept']);
  });
});
