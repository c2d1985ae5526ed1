import * as v from 'valibot';
import { describeIssue } from '../../src/state/documents/lenient.js';

/** What a state file's schema makes of a value: the document, or the reason it is corrupt (as the warning says it). */
export function parseOrReason<T>(schema: v.GenericSchema<unknown, T>, value: unknown): T | string {
  const read = v.safeParse(schema, value);
  return read.success ? read.output : describeIssue(read.issues);
}
