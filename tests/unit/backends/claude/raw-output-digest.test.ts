import { describe, expect, it } from 'vitest';
import { RawOutputDigest } from '../../../../src/backends/claude/raw-output-digest.js';
import { TextAccumulator } from '../../../../src/core/text-digest.js';

function chunksOf(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Both digests of `text` fed in chunks of `size`, with a small head and tail so the ring wraps often. */
function both(text: string, size: number, head = 10, tail = 25): [unknown, unknown] {
  const raw = new RawOutputDigest(head, tail);
  const reference = new TextAccumulator(head, tail);
  for (const chunk of chunksOf(text, size)) {
    raw.write(chunk);
    reference.write(chunk);
  }
  return [raw.digest(), reference.digest()];
}

describe('RawOutputDigest', () => {
  const texts: Array<[string, string]> = [
    ['empty', ''],
    ['shorter than the head', 'hello'],
    ['head and a bit', 'the head part|then a tail'],
    ['lines with errors', `${'line\n'.repeat(20)}Error: broken\n${'more\n'.repeat(30)}FATAL: end\n`],
    ['surrogate pairs and lone halves', `😀${'ab😀'.repeat(40)}\ud800 x \udfff${'é中'.repeat(30)}`],
  ];

  it.each(texts)('%s: the same digest as a TextAccumulator, whatever the chunks', (_name, text) => {
    for (const size of [1, 3, 7, 10, 24, 25, 26, 100, 10_000]) {
      const [raw, reference] = both(text, size);
      expect(raw).toEqual(reference);
    }
  });

  it('keeps the last tail characters of a long output, and only those', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `event ${i}\n`).join('');
    const [raw, reference] = both(text, 4096, 64, 1000);
    expect(raw).toEqual(reference);
    expect((raw as { tail: string }).tail).toBe(text.slice(-1000));
  });
});
