import * as v from 'valibot';
import { finite, listOf, neutralValue, record, text } from './lenient.js';
import type { RalphDocument } from '../document-store.js';

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

/** An empty session id means "none yet": the next touch starts one. */
export const RALPH_SESSION: RalphDocument<RalphSession> = { path: (p) => p.ralphSession, schema: ralphSessionSchema, empty: neutralValue(ralphSessionSchema) };

export const RALPH_SESSION_HISTORY: RalphDocument<SessionTransition[]> = { path: (p) => p.ralphSessionHistory, schema: sessionHistorySchema, empty: () => [] };
