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

export function isErrorLine(line: string): boolean {
  const scanned = line.length > ERROR_LINE_SCAN_CHARS ? line.slice(0, ERROR_LINE_SCAN_CHARS) : line;
  // Most lines hold no error marker: asked first, it spares them the key test.
  return mayHoldErrorMarker(scanned) && REAL_ERROR.test(scanned) && !JSON_ERROR_KEY.test(scanned);
}

/**
 * False when a line holds none of the words every marker of REAL_ERROR contains. A substring
 * search is several times faster than the regex, which tries each of its alternatives at every
 * character of a long line (a stream-json event line is thousands of characters).
 */
function mayHoldErrorMarker(line: string): boolean {
  return line.includes('rror') || line.includes('RROR') || line.includes('xception') || line.includes('Fatal') || line.includes('FATAL');
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
