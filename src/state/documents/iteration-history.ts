import * as v from 'valibot';
import { listOf, record } from './lenient.js';
import type { RalphDocument } from '../document-store.js';

/**
 * .iteration_history: the error lines of recent iterations, newest first, so
 * a loop that restarts still sees an error that keeps coming back.
 */
const errorLines = v.pipe(
  v.array(v.unknown()),
  v.transform((lines) => lines.filter((line): line is string => typeof line === 'string')),
);

export const iterationHistorySchema = record({ error_lines: listOf(errorLines, 'is not a list') }, 'not a JSON object');

export type IterationHistory = v.InferOutput<typeof iterationHistorySchema>;

/** How many iterations the file remembers. */
export const ITERATION_HISTORY_LIMIT = 5;

export const ITERATION_HISTORY: RalphDocument<IterationHistory> = {
  path: (p) => p.iterationHistory,
  schema: iterationHistorySchema,
  empty: () => ({ error_lines: [] }),
};
