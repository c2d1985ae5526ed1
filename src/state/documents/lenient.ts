import * as v from 'valibot';
import { isRecord, type JsonRecord } from '../../core/guards.js';

/**
 * Schema pieces for state files that other versions and tools also write (the
 * original bash Ralph, older Ralphs, a user's editor). A damaged or missing
 * field reads as a neutral value instead of failing the whole file, so a read
 * never loses more than the field that was wrong; only a value that cannot be
 * the document at all (not an object, a wrong version) makes the file corrupt.
 */

/** For a document whose every field has a neutral value: what `{}` reads as. */
export const neutralValue =
  <T>(schema: v.GenericSchema<unknown, T>) =>
  (): T =>
    v.parse(schema, {});

/** A JSON object (an array or null is not one); anything else fails with `message`. */
export function record<const E extends v.ObjectEntries>(entries: E, message: string) {
  // The object's own message only ever reports a required field that is not there.
  return v.pipe(v.custom<JsonRecord>(isRecord, message), v.object(entries, 'is missing'));
}

/** A JSON object used as a map from keys to `entry` values (an array is not one). */
export function mapOf<S extends v.GenericSchema>(entry: S, message: string) {
  return v.pipe(v.custom<JsonRecord>(isRecord, message), v.record(v.string(), entry));
}

// The pieces below that take no argument are made once and shared by every field that uses
// them (a schema is never changed once made): the read-only commands evaluate these schemas at
// start, and building one per field was a measurable part of that start.
const COUNT = v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0)), 0);
const FINITE_OR_NULL = v.fallback(v.nullable(v.pipe(v.number(), v.finite())), null);
const TEXT_OR_NULL = v.fallback(v.nullable(v.string()), null);
const NON_EMPTY_TEXT_OR_NULL = v.fallback(v.nullable(v.pipe(v.string(), v.nonEmpty())), null);
const FLAG = v.fallback(v.boolean(), false);
const TEXT = v.fallback(v.string(), '');
const FINITE = v.fallback(v.pipe(v.number(), v.finite()), 0);

/** A string, else `fallback`. */
export const text = (fallback = '') => (fallback === '' ? TEXT : v.fallback(v.string(), fallback));

/** A finite number, else `fallback`. */
export const finite = (fallback = 0) => (fallback === 0 ? FINITE : v.fallback(v.pipe(v.number(), v.finite()), fallback));

/** A whole number ≥ 0, else 0 (the counters). */
export const count = () => COUNT;

/** A finite number or null; anything else reads as null. */
export const finiteOrNull = () => FINITE_OR_NULL;

/** A string or null; anything else reads as null. */
export const textOrNull = () => TEXT_OR_NULL;

/** A non-empty string, else null. */
export const nonEmptyTextOrNull = () => NON_EMPTY_TEXT_OR_NULL;

/** true only for a real `true` (a "true" string or a 1 is not one). */
export const flag = () => FLAG;

/** One of `options`, else `fallback`. */
export const oneOf = <const T extends readonly [string, ...string[]]>(options: T, fallback: T[number]) => v.fallback(v.picklist(options), fallback);

/** An object read by `schema`, or null when the field is missing or not an object. */
export const objectOrNull = <S extends v.GenericSchema>(schema: S) => v.fallback(v.nullable(schema), null);

/**
 * A list whose junk entries are dropped one by one (the good ones are kept);
 * a value that is not a list at all fails with `message`.
 */
export function listOf<S extends v.GenericSchema>(entry: S, message: string) {
  return v.pipe(
    v.array(v.unknown(), message),
    v.transform((items) =>
      items.flatMap((item) => {
        const read = v.safeParse(entry, item);
        return read.success ? [read.output] : [];
      }),
    ),
  );
}

/** A list of whole numbers; one stray entry fails the list with `message`. */
export const integers = (message: string) => v.array(v.pipe(v.number('is not a whole number'), v.integer('is not a whole number')), message);

/** Keeps only the last `max` entries (files of older versions were unbounded). */
export const lastOnes = <T>(max: number) => v.transform((items: T[]) => items.slice(-max));

/**
 * What is wrong with a value, in a short phrase for the user's warning:
 * `results[0].passed is not a boolean`, or the schema's own message for the
 * whole document (`not a JSON object`).
 */
export function describeIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  if (!issue) return 'not readable';
  let where = '';
  for (const item of issue.path ?? []) {
    const key = item.key;
    where += typeof key === 'number' ? `[${key}]` : where === '' ? String(key) : `.${String(key)}`;
  }
  return where === '' ? issue.message : `${where} ${issue.message}`;
}
