import * as v from 'valibot';
import { CIRCUIT_HISTORY_LIMIT, initialCircuit, type CircuitHistoryEntry, type CircuitState, type CircuitStateName } from '../../core/circuit-breaker.js';
import { count, lastOnes, listOf, oneOf, record, text } from './lenient.js';
import type { RalphDocument } from '../document-store.js';

/**
 * .circuit_breaker_state and .circuit_breaker_history, in the original's
 * shape. The state name is the one field that cannot be guessed: a file
 * without a known one is corrupt (and the breaker starts CLOSED again).
 */
const STATES = ['CLOSED', 'HALF_OPEN', 'OPEN'] as const satisfies readonly CircuitStateName[];

const stateName = v.pipe(
  v.unknown(),
  // The original wrote the name in any case; the file still reads.
  v.transform((value) => (typeof value === 'string' ? value.toUpperCase() : value)),
  v.picklist(STATES, (issue) => `is unknown (${JSON.stringify(issue.input) ?? 'missing'})`),
);

export const circuitStateSchema: v.GenericSchema<unknown, CircuitState> = record(
  {
    state: stateName,
    last_change: text(),
    consecutive_no_progress: count(),
    consecutive_same_error: count(),
    consecutive_permission_denials: count(),
    consecutive_failures: count(),
    last_progress_loop: count(),
    total_opens: count(),
    reason: text(),
    current_loop: count(),
    opened_at: v.fallback(v.optional(v.string()), undefined),
  },
  'not a JSON object',
);

const historyEntry = record(
  {
    timestamp: text(),
    loop: count(),
    from_state: oneOf(STATES, 'CLOSED'),
    to_state: oneOf(STATES, 'CLOSED'),
    reason: text(),
  },
  'is not an object',
);

export const circuitHistorySchema: v.GenericSchema<unknown, CircuitHistoryEntry[]> = v.pipe(
  listOf(historyEntry, 'not a JSON array'),
  lastOnes(CIRCUIT_HISTORY_LIMIT),
);

export const CIRCUIT_STATE: RalphDocument<CircuitState> = { path: (p) => p.circuitState, schema: circuitStateSchema, empty: initialCircuit };

export const CIRCUIT_HISTORY: RalphDocument<CircuitHistoryEntry[]> = { path: (p) => p.circuitHistory, schema: circuitHistorySchema, empty: () => [] };
