import type { RalphDocument } from './document-store.js';
import { CIRCUIT_HISTORY, CIRCUIT_STATE } from './documents/circuit.js';
import { EXIT_SIGNALS } from './documents/exit-signals.js';
import { ITERATION_HISTORY } from './documents/iteration-history.js';
import { PROGRESS } from './documents/progress.js';
import { RATE_LIMIT } from './documents/rate-limit.js';
import { RESPONSE_ANALYSIS } from './documents/response-analysis.js';
import { RALPH_SESSION, RALPH_SESSION_HISTORY } from './documents/sessions.js';
import { STATUS } from './documents/status.js';
import { VERIFY_GATE } from './documents/verify-gate.js';

/**
 * The JSON documents a loop keeps under `.ralph/`. Each is declared once, next
 * to its schema in documents/ (where the file is, its schema, its value before
 * the first write), and read and written only through document-store.ts, so a
 * reader cannot disagree with the writer about a shape. A command imports the
 * declarations it needs from there (read-only commands stay light); this list
 * is for what concerns every document: a new state file is one more entry.
 */
export const LOOP_DOCUMENTS: readonly RalphDocument<unknown>[] = [
  STATUS,
  PROGRESS,
  CIRCUIT_STATE,
  CIRCUIT_HISTORY,
  RESPONSE_ANALYSIS,
  EXIT_SIGNALS,
  RATE_LIMIT,
  RALPH_SESSION,
  RALPH_SESSION_HISTORY,
  VERIFY_GATE,
  ITERATION_HISTORY,
];
