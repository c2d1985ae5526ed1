import { describe, expect, it } from 'vitest';
import { proseLines } from '../../../src/core/markdown-prose.js';

describe('proseLines', () => {
  it.each([
    [
      'plain lines, CRLF read like LF',
      'a\r\nb',
      [
        { line: 'a', index: 0 },
        { line: 'b', index: 1 },
      ],
    ],
    [
      'a fence and what it holds are passed over',
      'a\n```\n- [ ] x\n```\nb',
      [
        { line: 'a', index: 0 },
        { line: 'b', index: 4 },
      ],
    ],
    ['a fence closes only with its own marker', '~~~\n```\nx\n~~~\nb', [{ line: 'b', index: 4 }]],
    [
      'a comment over several lines is passed over',
      'a\n<!-- hidden\n- [ ] x\n-->\nb',
      [
        { line: 'a', index: 0 },
        { line: 'b', index: 4 },
      ],
    ],
    ['a one-line comment is passed over alone', '<!-- x -->\nb', [{ line: 'b', index: 1 }]],
  ])('%s', (_name, text, expected) => {
    expect(proseLines(text)).toEqual(expected);
  });
});
