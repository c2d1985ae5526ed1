import { describe, expect, it } from 'vitest';
import { fitLine, part } from '../../src/ui/styled-line.js';
import { displayWidth, padToWidth, sanitizeLine, sanitizeText, truncateToWidth } from '../../src/ui/text-fit.js';

describe('displayWidth', () => {
  it.each([
    ['plain', 5],
    ['', 0],
    ['🤖 bot', 6],
    ['⚡ [Bash]', 9],
    ['⠋ Working', 9],
    ['⚠️ x', 4],
    ['日本', 4],
    ['e\u0301', 1],
    ['한국어', 6],
    ['ＡＢ', 4],
    ['ｱ', 1],
    ['a\u200bb', 2],
    ['🀄 tile', 7],
  ])('%j is %i columns', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe('truncateToWidth', () => {
  it.each([
    ['hello world', 5, 'hell…'],
    ['hello', 5, 'hello'],
    ['hello', 0, ''],
    ['日本語テキスト', 5, '日本…'],
    ['🤖🤖🤖', 4, '🤖…'],
  ])('%j to %i → %j', (text, width, expected) => {
    const out = truncateToWidth(text, width);
    expect(out).toBe(expected);
    expect(displayWidth(out)).toBeLessThanOrEqual(width);
  });
});

describe('sanitize', () => {
  it('removes escape sequences and controls from a line, tabs and newlines become spaces', () => {
    expect(sanitizeLine('a\u001b[2Jb\u001b]0;title\u0007c\td\ne\u0000f\u009bg')).toBe('abc d efg');
  });
  it('keeps newlines and tabs in multi-line text and normalises CRLF', () => {
    expect(sanitizeText('one\r\ntwo\tthree\u001b[1mbold\u001b[0m\u0007')).toBe('one\ntwo\tthreebold');
  });
});

describe('fitLine', () => {
  it('cuts the part that crosses the edge and drops the rest', () => {
    expect(fitLine([part('label: '), part('a long value here'), part(' more')], 12, false)).toBe('label: a lo…');
  });
  it('paints parts after fitting, so escape codes are never cut', () => {
    const out = fitLine([part('ok', 'green'), part(' and red text', 'red')], 8, true);
    expect(out).toBe('\u001b[32mok\u001b[39m\u001b[31m and …\u001b[39m');
  });
  it('pads to a width without cutting', () => {
    expect(padToWidth('🤖', 4)).toBe('🤖  ');
    expect(padToWidth('long', 2)).toBe('long');
  });
});

describe('the width of a character met again', () => {
  it('is the same the second time (the widths met are kept), in any company', () => {
    expect(displayWidth('─'.repeat(80))).toBe(80);
    expect(displayWidth('日本日本')).toBe(8);
    expect(displayWidth('e\u0301e\u0301')).toBe(2);
    // VS16 after a symbol met before without it: two columns, not the one kept for the bare symbol.
    expect(displayWidth('⚠')).toBe(1);
    expect(displayWidth('⚠\ufe0f')).toBe(2);
    expect(displayWidth('⚠')).toBe(1);
    // An ASCII character before VS16 is drawn as its emoji, as before.
    expect(displayWidth('#\ufe0f')).toBe(2);
    expect(truncateToWidth(`${'─'.repeat(10)}x`, 5)).toBe('────…');
  });
});
