import * as v from 'valibot';
import { finite, listOf, record, text } from './lenient.js';

/**
 * .ralph_session (the current run session) and .ralph_session_history (why
 * sessions were reset), in the original's shape.
 */
export const ralphSessionSchema = record(
  {
    session_id: text(),
    created_at: text(),
    last_used: text(),
    reset_at: text(),
    reset_reason: text(),
  },
  'not a JSON object',
);

export type RalphSession = v.InferOutput<typeof ralphSessionSchema>;

const transition = record(
  {
    timestamp: text(),
    from_state: text(),
    to_state: text(),
    reason: text(),
    loop_number: finite(),
  },
  'is not an object',
);

export type SessionTransition = v.InferOutput<typeof transition>;

export const SESSION_HISTORY_LIMIT = 50;

export const sessionHistorySchema = listOf(transition, 'not a JSON array');
