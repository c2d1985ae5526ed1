import { digestOf } from '../../core/text-digest.js';

/** What the stream parser keeps of a value, whoever parsed it. */
export interface JsonBounds {
  /** Strings under these keys become text digests. */
  textKeys: ReadonlySet<string>;
  /** Other strings keep their first characters. */
  maxStringChars: number;
  maxKeyChars: number;
  /** Containers nested deeper than this are an error. */
  maxDepth: number;
}

/** The answer for a value the character-by-character reader must read: it reports the error, or settles which of two cut keys wins. */
export const READ_BY_CHARACTER: unique symbol = Symbol('read by character');

/**
 * A value JSON.parse produced, cut down to what the stream parser would have kept of the same
 * text: strings under a text key digested, other long strings cut. The value is changed in
 * place (JSON.parse made it, nobody else holds it).
 */
export function boundParsedJson(value: unknown, bounds: JsonBounds, depth = 1): unknown {
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
    const kept = typeof item === 'string' && bounds.textKeys.has(key) ? digestOf(item) : boundParsedJson(item, bounds, depth + 1);
    if (kept === READ_BY_CHARACTER) return kept;
    if (kept === item) continue;
    // JSON.parse made "__proto__" an own property; assigning to it would set the prototype instead.
    if (key === '__proto__') Object.defineProperty(object, key, { value: kept, enumerable: true, writable: true, configurable: true });
    else object[key] = kept;
  }
  return object;
}
