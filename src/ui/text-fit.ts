/**
 * Terminal text fitting for the dashboard: how many columns a string takes,
 * and cutting it to a width. Pure; no ANSI in, no ANSI out — colour is applied
 * after fitting so truncation never cuts an escape sequence in half.
 */
import { eastAsianWidth } from 'get-east-asian-width';

// Anything a terminal would interpret: CSI/OSC escape sequences and C0/C1 controls.
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Makes untrusted text (log lines, agent output) safe to print on one line:
 * escape sequences and control characters are removed, tabs and newlines
 * become spaces.
 */
export function sanitizeLine(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(/[\t\n\r]/g, ' ')
    .replace(CONTROL, '');
}

/**
 * Code points that take no column of their own: combining marks (the accent of `e\u0301`),
 * variation selectors, joiners and the other characters Unicode marks as ignorable.
 */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}]$/u;

/**
 * Columns one code point takes. How wide a character is drawn is Unicode's East Asian Width
 * (CJK, Hangul, fullwidth forms and emoji are two columns), read from get-east-asian-width,
 * the table string-width uses, rather than a list of ranges kept by hand. string-width itself
 * is not used: it builds an Intl.Segmenter when it is loaded, which costs the read-only
 * commands that draw a frame (`ralph-monitor --once`) a large part of their start.
 */
function charWidth(cp: number, next: number | undefined): number {
  // Printable ASCII is one column and never followed by VS16 to any effect a terminal draws.
  if (cp >= 0x20 && cp < 0x7f && next !== 0xfe0f) return 1;
  // VS16 turns a text-style symbol (⚠ ℹ) into a two-column emoji.
  if (next === 0xfe0f && !ZERO_WIDTH.test(String.fromCodePoint(cp))) return 2;
  let width = WIDTHS.get(cp);
  if (width === undefined) {
    width = ZERO_WIDTH.test(String.fromCodePoint(cp)) ? 0 : eastAsianWidth(cp);
    if (cp < 0x10000) WIDTHS.set(cp, width);
  }
  return width;
}

// Cache: the width of each code point of the Basic Multilingual Plane met so far (a rule line
// repeats one character 80 times; Unicode's tables do not change while the process runs; at
// most 65,536 entries however much text the dashboard draws).
const WIDTHS = new Map<number, number>();

/** Printable ASCII: one column a character, the case of almost every line the dashboard draws. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Columns `text` occupies on a terminal (text without escape sequences). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  const cps = Array.from(text, (c) => c.codePointAt(0) ?? 0);
  let width = 0;
  for (let i = 0; i < cps.length; i += 1) width += charWidth(cps[i] ?? 0, cps[i + 1]);
  return width;
}

/** Cuts `text` to at most `width` columns, ending with "…" when something was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  const chars = Array.from(text);
  let out = '';
  let used = 0;
  for (let i = 0; i < chars.length; i += 1) {
    const ch = chars[i] ?? '';
    const w = charWidth(ch.codePointAt(0) ?? 0, chars[i + 1]?.codePointAt(0));
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

/** Pads `text` with spaces on the right to `width` columns (never cuts). */
export function padToWidth(text: string, width: number): string {
  const missing = width - displayWidth(text);
  return missing > 0 ? text + ' '.repeat(missing) : text;
}

/** Any character sanitizeText removes or changes (escape sequences start with ESC, a control character). */
const UNSAFE_IN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Like sanitizeLine, but keeps newlines and tabs: for streamed multi-line text. */
export function sanitizeText(text: string): string {
  // Most streamed text has nothing to remove: one look instead of three rewrites.
  if (!UNSAFE_IN_TEXT.test(text)) return text;
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}
