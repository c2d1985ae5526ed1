/**
 * Terminal text fitting for the dashboard: how many columns a string takes,
 * and cutting it to a width. Pure; no ANSI in, no ANSI out — colour is applied
 * after fitting so truncation never cuts an escape sequence in half.
 */

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

/** Code points a terminal draws two columns wide (CJK, most emoji). */
function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    cp === 0x231a ||
    cp === 0x231b ||
    (cp >= 0x23e9 && cp <= 0x23ec) ||
    cp === 0x23f0 ||
    cp === 0x23f3 ||
    cp === 0x25fd ||
    cp === 0x25fe ||
    cp === 0x2614 ||
    cp === 0x2615 ||
    cp === 0x26a1 ||
    cp === 0x26aa ||
    cp === 0x26ab ||
    cp === 0x26bd ||
    cp === 0x26be ||
    cp === 0x26d4 ||
    cp === 0x26ea ||
    cp === 0x26f5 ||
    cp === 0x26fa ||
    cp === 0x26fd ||
    cp === 0x2705 ||
    cp === 0x270a ||
    cp === 0x270b ||
    cp === 0x2728 ||
    cp === 0x274c ||
    cp === 0x274e ||
    (cp >= 0x2753 && cp <= 0x2755) ||
    cp === 0x2757 ||
    (cp >= 0x2795 && cp <= 0x2797) ||
    cp === 0x27b0 ||
    cp === 0x27bf ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f680 && cp <= 0x1f6ff) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x1fa70 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

function isZeroWidth(cp: number): boolean {
  return (cp >= 0x0300 && cp <= 0x036f) || cp === 0x200b || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f);
}

function charWidth(cp: number, next: number | undefined): number {
  if (isZeroWidth(cp)) return 0;
  // VS16 turns a text-style symbol (⚠ ℹ) into a two-column emoji.
  if (next === 0xfe0f) return 2;
  return isWide(cp) ? 2 : 1;
}

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
