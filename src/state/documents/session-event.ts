import * as v from 'valibot';
import { isRecord, type JsonRecord } from '../../core/guards.js';

/**
 * One line of `.ralph/logs/session.jsonl`: `{ts, event, data}` (published as
 * docs/schemas/session-event.schema.json). The messages name the field the way
 * a reader of the file sees it, for "line N: …" reports.
 */
const TS = '"ts" is not a number';
const EVENT = '"event" is not a non-empty string';

export const sessionEventSchema = v.pipe(
  v.custom<JsonRecord>(isRecord, 'not a JSON object'),
  v.object(
    {
      ts: v.pipe(v.number(TS), v.finite(TS)),
      event: v.pipe(v.string(EVENT), v.nonEmpty(EVENT)),
      data: v.optional(v.custom<JsonRecord>(isRecord, '"data" is not an object'), () => ({})),
    },
    // Only a missing field reaches the object's own message.
    (issue) => (issue.expected === '"ts"' ? TS : EVENT),
  ),
);

export type SessionEvent = v.InferOutput<typeof sessionEventSchema>;
