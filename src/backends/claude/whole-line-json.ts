import { digestOf } from '../../core/text-digest.js';

/**
 * Reading a stream's lines whole. A stream of events is mostly whole lines of moderate size,
 * and reading them character by character costs several times what JSON.parse does. So a
 * value that starts a line is handed to JSON.parse whole, when the rest of the line is at
 * hand and not too long, and then cut down as the character reader keeps it. Whatever
 * JSON.parse refuses (a value the chunk cuts, several values on one line, a raw control
 * character the stream accepts, a syntax error to locate) is left to the character reader,
 * so the values and the errors are the same either way.
 */

/** Longest line handed to JSON.parse whole: what it allocates at once stays small. */
export const WHOLE_LINE_CHARS = 1024 * 1024;

/** What the stream parser keeps of a value, whoever parsed it. */
export interface JsonBounds {
  /** Strings under these keys longer than maxStringChars become text digests. */
  textKeys: ReadonlySet<string>;
  /** Other strings longer than this keep their first characters. */
  maxStringChars: number;
  maxKeyChars: number;
  /** Containers nested deeper than this are an error. */
  maxDepth: number;
}

/** The answer for a value the character-by-character reader must read: it reports the error, or settles which of two cut keys wins. */
const READ_BY_CHARACTER: unique symbol = Symbol('read by character');

/**
 * Reads the value that starts at `start` (with "{" or "[") when it runs to the end of its line
 * (or of the chunk), and hands it to `onValue`. Returns where reading goes on, or undefined when
 * the value is left to the character reader. A value that starts like `ignored` and whose line is
 * whole in the chunk and ends like an object is not read: `onValue` receives undefined for it.
 */
export function readWholeLine(chunk: string, start: number, bounds: JsonBounds, onValue: (value: unknown) => void, ignored?: RegExp): number | undefined {
  const newline = chunk.indexOf('\n', start);
  if (ignored !== undefined && newline !== -1 && isIgnored(chunk, start, newline, ignored)) {
    onValue(undefined);
    return newline;
  }
  const end = newline === -1 ? chunk.length : newline;
  if (end - start > WHOLE_LINE_CHARS) return undefined;
  // A line the chunk cuts would only make JSON.parse throw, and a throw costs far more (in time,
  // and in memory the process keeps) than reading it by character: only a piece that closes
  // like a value is tried.
  if (newline === -1 && !endsLikeAValue(chunk, start)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(chunk.slice(start, end));
  } catch {
    return undefined;
  }
  const value = boundParsedJson(parsed, bounds);
  if (value === READ_BY_CHARACTER) return undefined;
  onValue(value);
  return end;
}

/** Whether the line from `start` to `newline` starts like `pattern` (a sticky one) and ends, spaces aside, with "}". */
function isIgnored(chunk: string, start: number, newline: number, pattern: RegExp): boolean {
  pattern.lastIndex = start;
  if (!pattern.test(chunk)) return false;
  let last = newline - 1;
  while (last > start && isSpace(chunk.charCodeAt(last))) last -= 1;
  return chunk.charCodeAt(last) === 0x7d;
}

/** Whether `chunk` from `start` ends (spaces aside) with a closing bracket. */
function endsLikeAValue(chunk: string, start: number): boolean {
  let last = chunk.length - 1;
  while (last > start && isSpace(chunk.charCodeAt(last))) last -= 1;
  const c = chunk.charCodeAt(last);
  return c === 0x7d || c === 0x5d;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * A value JSON.parse produced, cut down to what the stream parser would have kept of the same
 * text: long strings under a text key digested, other long strings cut. The value is changed in
 * place (JSON.parse made it, nobody else holds it).
 */
function boundParsedJson(value: unknown, bounds: JsonBounds, depth = 1): unknown {
  if (typeof value === 'string') return value.length > bounds.maxStringChars ? value.slice(0, bounds.maxStringChars) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > bounds.maxDepth) return READ_BY_CHARACTER;
  if (Array.isArray(value)) {
    for (let k = 0; k < value.length; k += 1) {
      const item = boundParsedJson(value[k], bounds, depth + 1);
      if (item === READ_BY_CHARACTER) return item;
      value[k] = item;
    }
    return value;
  }
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    // Keys are cut too, and two cut keys may meet: which value wins depends on the order read.
    if (key.length > bounds.maxKeyChars) return READ_BY_CHARACTER;
    const item = object[key];
    const kept =
      typeof item === 'string' && item.length > bounds.maxStringChars && bounds.textKeys.has(key) ? digestOf(item) : boundParsedJson(item, bounds, depth + 1);
    if (kept === READ_BY_CHARACTER) return kept;
    if (kept === item) continue;
    // JSON.parse made "__proto__" an own property; assigning to it would set the prototype instead.
    if (key === '__proto__') Object.defineProperty(object, key, { value: kept, enumerable: true, writable: true, configurable: true });
    else object[key] = kept;
  }
  return object;
}
