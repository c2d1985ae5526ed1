import {
  initialCircuit,
  recordIteration,
  type CircuitLimits,
  type CircuitState,
  type CircuitUpdate,
  type IterationOutcome,
} from '../../../src/core/circuit-breaker.js';

/** Shared fixtures of the circuit-breaker tests: an injected clock and outcome builders. */
export const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
export const MINUTE = 60_000;
export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');

export const LIMITS: CircuitLimits = {
  noProgress: 3,
  sameError: 5,
  permissionDenials: 2,
  failures: 5,
  halfOpenAfter: 2,
  cooldownMinutes: 30,
  autoReset: false,
};

export function outcome(overrides: Partial<IterationOutcome> = {}): IterationOutcome {
  return {
    loop: 1,
    failed: false,
    progress: false,
    verifyFailed: false,
    askingQuestions: false,
    hasErrors: false,
    errorsRepeat: false,
    permissionDenied: false,
    ...overrides,
  };
}

export const PROGRESS = { progress: true };
export const NO_PROGRESS = {};
export const FAILED = { failed: true };
export const SAME_ERROR = { progress: true, hasErrors: true, errorsRepeat: true };
export const DENIED = { progress: true, permissionDenied: true };

/** Feeds outcomes one per loop (starting at `firstLoop`), one minute apart; returns every update. */
export function feed(start: CircuitState, outcomes: Array<Partial<IterationOutcome>>, limits = LIMITS, firstLoop = 1): CircuitUpdate[] {
  const updates: CircuitUpdate[] = [];
  let state = start;
  outcomes.forEach((o, i) => {
    const update = recordIteration(state, outcome({ loop: firstLoop + i, ...o }), T0 + i * MINUTE, limits);
    updates.push(update);
    state = update.state;
  });
  return updates;
}

export const finalState = (updates: CircuitUpdate[]): CircuitState => (updates[updates.length - 1] as CircuitUpdate).state;
export const closed = (): CircuitState => initialCircuit(T0 - 10 * MINUTE);
export const withState = (overrides: Partial<CircuitState>): CircuitState => ({ ...closed(), ...overrides });
