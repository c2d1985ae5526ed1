import { displayWidth, sanitizeLine, truncateToWidth } from './text-fit.js';

/**
 * A screen line as styled parts. Lines are fitted to the terminal width on
 * plain text first and painted afterwards, so a cut never lands inside an
 * escape sequence and `color: false` yields no ANSI at all.
 */
export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan';

export interface Part {
  text: string;
  style?: Style;
}

export type Line = Part[];

const SGR: Record<Style, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
};

export function part(text: string, style?: Style): Part {
  return style === undefined ? { text } : { text, style };
}

function paint(text: string, style: Style | undefined, color: boolean): string {
  if (!color || style === undefined || text === '') return text;
  const [on, off] = SGR[style];
  return `\u001b[${on}m${text}\u001b[${off}m`;
}

/**
 * Renders a line at most `width` columns wide. Part texts are sanitized
 * (untrusted file content must not move the cursor); the part that crosses
 * the edge is cut with "…" and the rest dropped.
 */
export function fitLine(line: Line, width: number, color: boolean): string {
  let out = '';
  let used = 0;
  for (const p of line) {
    const text = sanitizeLine(p.text);
    const w = displayWidth(text);
    if (used + w <= width) {
      out += paint(text, p.style, color);
      used += w;
      continue;
    }
    out += paint(truncateToWidth(text, width - used), p.style, color);
    break;
  }
  return out;
}
