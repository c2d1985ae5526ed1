import * as v from 'valibot';
import { initialCircuit, type CircuitHistoryEntry, type CircuitState } from '../core/circuit-breaker.js';
import { emptyExitSignals, type ExitSignals } from '../core/exit-signals.js';
import { emptyRateState, type RateState } from '../core/rate-limiter.js';
import type { StatusDocument } from '../core/status-model.js';
import type { GateState } from '../core/verify-gate.js';
import type { DocumentSpec } from './document-store.js';
import { circuitHistorySchema, circuitStateSchema } from './documents/circuit.js';
import { exitSignalsSchema } from './documents/exit-signals.js';
import { iterationHistorySchema, type IterationHistory } from './documents/iteration-history.js';
import { progressSchema, type ProgressDocument } from './documents/progress.js';
import { rateStateSchema } from './documents/rate-limit.js';
import { responseAnalysisSchema, type ResponseAnalysis } from './documents/response-analysis.js';
import { ralphSessionSchema, sessionHistorySchema, type RalphSession, type SessionTransition } from './documents/sessions.js';
import { statusSchema } from './documents/status.js';
import { gateStateSchema } from './documents/verify-gate.js';
import type { RalphPaths } from './paths.js';

/**
 * The JSON documents a loop keeps under `.ralph/`, one entry each: where the
 * file is, its schema, and its value before the first write. Every reader and
 * writer goes through these entries (document-store.ts), so a reader cannot
 * disagree with the writer about a shape, and a new state file is one entry
 * here (plus its schema in documents/).
 */
type RalphDocument<T> = DocumentSpec<T, RalphPaths>;

/** For the documents whose every field has a neutral value: what `{}` reads as. */
const neutral = <T>(schema: v.GenericSchema<unknown, T>) => (): T => v.parse(schema, {});

export const STATUS: RalphDocument<StatusDocument> = { path: (p) => p.status, schema: statusSchema, empty: neutral(statusSchema) };

export const PROGRESS: RalphDocument<ProgressDocument> = { path: (p) => p.progress, schema: progressSchema, empty: neutral(progressSchema) };

export const CIRCUIT_STATE: RalphDocument<CircuitState> = { path: (p) => p.circuitState, schema: circuitStateSchema, empty: initialCircuit };

export const CIRCUIT_HISTORY: RalphDocument<CircuitHistoryEntry[]> = { path: (p) => p.circuitHistory, schema: circuitHistorySchema, empty: () => [] };

export const RESPONSE_ANALYSIS: RalphDocument<ResponseAnalysis> = { path: (p) => p.responseAnalysis, schema: responseAnalysisSchema, empty: neutral(responseAnalysisSchema) };

export const EXIT_SIGNALS: RalphDocument<ExitSignals> = { path: (p) => p.exitSignals, schema: exitSignalsSchema, empty: emptyExitSignals };

export const RATE_LIMIT: RalphDocument<RateState> = { path: (p) => p.rateLimit, schema: rateStateSchema, empty: emptyRateState };

/** An empty session id means "none yet": the next touch starts one. */
export const RALPH_SESSION: RalphDocument<RalphSession> = { path: (p) => p.ralphSession, schema: ralphSessionSchema, empty: neutral(ralphSessionSchema) };

export const RALPH_SESSION_HISTORY: RalphDocument<SessionTransition[]> = { path: (p) => p.ralphSessionHistory, schema: sessionHistorySchema, empty: () => [] };

/** No gate until a verify command ran. */
export const VERIFY_GATE: RalphDocument<GateState | undefined> = { path: (p) => p.gateState, schema: gateStateSchema, empty: () => undefined };

export const ITERATION_HISTORY: RalphDocument<IterationHistory> = { path: (p) => p.iterationHistory, schema: iterationHistorySchema, empty: () => ({ error_lines: [] }) };

/** Every document of a loop run: what a fresh start (the test tools' re-run) clears. */
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
