import { isTextDigest } from '../../core/text-digest.js';

/** Narrowing for fields of Claude's JSON output: any field may be missing or of another type. */
export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field as text; a giant string the stream reader kept as head and tail reads as both. */
export function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isTextDigest(value)) return value.head + value.tail;
  return undefined;
}
