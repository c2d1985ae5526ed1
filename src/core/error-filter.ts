/**
 * The two-stage error filter of the original.
 *
 * Stage 1 drops lines that carry a JSON key containing "error" ("has_errors": false,
 * "error": null), which tripped the original's breaker for months.
 * Stage 2 keeps lines that look like a real error report.
 */
const JSON_ERROR_KEY = /"[^"]*error[^"]*":/;
const REAL_ERROR = /(^Error:|^ERROR:|^error:|\]: error|Link: error|Error occurred|failed with error|[Ee]xception|Fatal|FATAL)/;

/** Longest part of a line we look at; error markers sit near the start of a line. */
export const ERROR_LINE_SCAN_CHARS = 2000;

/**
 * Every match of REAL_ERROR contains one of these words. Looking for them is several times
 * cheaper than either pattern, and most lines of a long output contain none.
 */
function mayBeErrorLine(line: string): boolean {
  return line.includes('rror') || line.includes('RROR') || line.includes('xception') || line.includes('Fatal') || line.includes('FATAL');
}

export function isErrorLine(line: string): boolean {
  const scanned = line.length > ERROR_LINE_SCAN_CHARS ? line.slice(0, ERROR_LINE_SCAN_CHARS) : line;
  if (!mayBeErrorLine(scanned)) return false;
  return REAL_ERROR.test(scanned) && !JSON_ERROR_KEY.test(scanned);
}

/** Normalizes an error line for comparison across iterations (trailing CR/space, capped length). */
export function normalizeErrorLine(line: string): string {
  // trimEnd drops what /\s+$/u would (white space and line ends), without a regex run over each line.
  return line.trimEnd().slice(0, 300);
}

export function findErrorLines(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    if (isErrorLine(line)) found.push(normalizeErrorLine(line));
  }
  return found;
}
