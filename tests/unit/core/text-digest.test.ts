import { describe, expect, it } from 'vitest';
import {
  DIGEST_HEAD_CHARS,
  DIGEST_TAIL_CHARS,
  TextAccumulator,
  digestOf,
  digestText,
  emptyDigest,
  isTextDigest,
  type TextDigest,
} from '../../../src/core/text-digest.js';

function digestInChunks(text: string, size: number, head?: number, tail?: number): TextDigest {
  const acc = new TextAccumulator(head, tail);
  for (let i = 0; i < text.length; i += size) acc.write(text.slice(i, i + size));
  return acc.digest();
}

describe('TextAccumulator', () => {
  it('keeps a small text whole', () => {
    const d = digestOf('hello\nworld');
    expect(d).toEqual({ kind: 'text-digest', head: 'hello\nworld', tail: '', length: 11, truncated: false, errorLines: [], errorLineCount: 0 });
    expect(digestText(d)).toBe('hello\nworld');
  });

  it('keeps head and tail of a long text and says how much was left out', () => {
    const text = 'H'.repeat(10) + 'M'.repeat(70) + 'T'.repeat(20);
    const d = digestInChunks(text, 9, 10, 20);
    expect(d.head).toBe('H'.repeat(10));
    expect(d.tail).toBe('T'.repeat(20));
    expect(d.length).toBe(100);
    expect(d.truncated).toBe(true);
    expect(digestText(d)).toBe(`${'H'.repeat(10)}\n[... 70 characters omitted ...]\n${'T'.repeat(20)}`);
  });

  it('is not truncated when head and tail exactly cover the text', () => {
    const text = 'a'.repeat(30);
    const d = digestInChunks(text, 4, 10, 20);
    expect(d.truncated).toBe(false);
    expect(digestText(d)).toBe(text);
  });

  it.each([1, 7, 4096])('gives the same digest for chunks of %i characters', (size) => {
    const text = Array.from({ length: 400 }, (_, i) => (i % 37 === 0 ? `Error: failure number ${i % 3}` : `line ${i} with some words`)).join('\n');
    expect(digestInChunks(text, size, 500, 800)).toEqual(digestInChunks(text, text.length, 500, 800));
  });

  it('finds error lines anywhere, including the dropped middle of a 10 MB text', () => {
    const filler = `${'x'.repeat(99)}\n`.repeat(50_000);
    const text = `${filler}Error: the real problem\n${filler}Traceback: ValueError exception raised\n${filler}`;
    const acc = new TextAccumulator();
    for (let i = 0; i < text.length; i += 65_536) acc.write(text.slice(i, i + 65_536));
    const d = acc.digest();
    expect(d.length).toBe(text.length);
    expect(d.head.length).toBe(DIGEST_HEAD_CHARS);
    expect(d.tail.length).toBe(DIGEST_TAIL_CHARS);
    expect(d.truncated).toBe(true);
    expect(d.errorLines).toEqual(['Error: the real problem', 'Traceback: ValueError exception raised']);
    expect(digestText(d).length).toBeLessThan(DIGEST_HEAD_CHARS + DIGEST_TAIL_CHARS + 100);
  });

  it('finds an error line split across chunks and one without a final newline', () => {
    const acc = new TextAccumulator();
    acc.write('ok\nErr');
    acc.write('or: split');
    acc.write(' here\nFATAL: last line');
    expect(acc.digest().errorLines).toEqual(['Error: split here', 'FATAL: last line']);
  });

  it('counts repeats but lists each error line once, in order of first appearance', () => {
    const d = digestOf('Error: b\nError: a\nError: b\r\nError: b   \nfine');
    expect(d.errorLines).toEqual(['Error: b', 'Error: a']);
    expect(d.errorLineCount).toBe(4);
  });

  it('caps the list of distinct error lines at 50 but keeps counting', () => {
    const text = Array.from({ length: 80 }, (_, i) => `Error: number ${i}`).join('\n');
    const d = digestOf(text);
    expect(d.errorLines).toHaveLength(50);
    expect(d.errorLines[0]).toBe('Error: number 0');
    expect(d.errorLineCount).toBe(80);
  });

  it('ignores JSON error keys (stage 1 of the filter)', () => {
    expect(digestOf('{"is_error": false, "error": null}\n"error": "x",').errorLines).toEqual([]);
  });

  it('a text far longer than head and tail digests exactly as if held whole, whatever the pieces', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'·'.repeat(i % 13)}😀`).join('\n');
    const expected = { head: text.slice(0, 1000), tail: text.slice(1000).slice(-3000), length: text.length, truncated: true };
    for (const size of [1, 999, 2999, 4096, text.length]) {
      expect(digestInChunks(text, size, 1000, 3000)).toMatchObject(expected);
    }
  });

  it('counts an error line repeated line after line each time, and lists it once', () => {
    const d = digestOf(`${'Error: flaky test\n'.repeat(1000)}ok\nError: flaky test  \nError: other`);
    expect(d.errorLineCount).toBe(1002);
    expect(d.errorLines).toEqual(['Error: flaky test', 'Error: other']);
  });

  it('handles an empty write and an empty text', () => {
    const acc = new TextAccumulator();
    acc.write('');
    expect(acc.digest()).toEqual(emptyDigest());
  });
});

describe('digest helpers', () => {
  it('recognises a digest and nothing else', () => {
    expect(isTextDigest(emptyDigest())).toBe(true);
    expect(isTextDigest(digestOf('x'))).toBe(true);
    expect(isTextDigest({ head: '', tail: '' })).toBe(false);
    expect(isTextDigest('text')).toBe(false);
    expect(isTextDigest(null)).toBe(false);
  });

  it('an empty digest reads as empty text', () => {
    expect(digestText(emptyDigest())).toBe('');
  });
});
