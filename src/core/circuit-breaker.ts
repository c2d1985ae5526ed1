import { isoTimestamp, parseIso } from './time-format.js';

/**
 * The circuit breaker as a pure state machine over the
 * original's state-file shape. Fixes: failed calls count; "same error"
 * means the same error lines recur; HALF_OPEN watches errors too; a
 * cooldown gives the circuit a fresh trial instead of re-opening at once.
 */
export type CircuitStateName = 'CLOSED' | 'HALF_OPEN' | 'OPEN';

export interface CircuitState {
  state: CircuitStateName;
  last_change: string;
  consecutive_no_progress: number;
  consecutive_same_error: number;
  consecutive_permission_denials: number;
  consecutive_failures: number;
  last_progress_loop: number;
  total_opens: number;
  reason: string;
  current_loop: number;
  opened_at?: string;
}

export interface CircuitLimits {
  noProgress: number;
  sameError: number;
  permissionDenials: number;
  failures: number;
  /** No-progress iterations that move CLOSED to HALF_OPEN (monitoring). */
  halfOpenAfter: number;
  cooldownMinutes: number;
  autoReset: boolean;
}

export interface IterationOutcome {
  loop: number;
  /** Non-zero exit, an error the agent reported, startup failure, or a timeout without progress. */
  failed: boolean;
  /** Files changed, tasks checked, self-reported work, or a completion claim. */
  progress: boolean;
  /** The verify gate failed on this iteration's work (progress does not fully count). */
  verifyFailed: boolean;
  askingQuestions: boolean;
  hasErrors: boolean;
  /** Every error line of this iteration was also an error of the previous one. */
  errorsRepeat: boolean;
  permissionDenied: boolean;
}

export interface Transition {
  from: CircuitStateName;
  to: CircuitStateName;
  reason: string;
}

export interface CircuitUpdate {
  state: CircuitState;
  transition?: Transition;
}

export const RECOVERED_MESSAGE = '✅ CIRCUIT BREAKER: Normal Operation - Progress detected, circuit recovered';

export function initialCircuit(nowMs: number): CircuitState {
  return {
    state: 'CLOSED',
    last_change: isoTimestamp(nowMs),
    consecutive_no_progress: 0,
    consecutive_same_error: 0,
    consecutive_permission_denials: 0,
    consecutive_failures: 0,
    last_progress_loop: 0,
    total_opens: 0,
    reason: '',
    current_loop: 0,
  };
}

function moveTo(prev: CircuitState, next: CircuitState, to: CircuitStateName, reason: string, nowMs: number): CircuitUpdate {
  const state: CircuitState = { ...next, state: to, reason, last_change: isoTimestamp(nowMs) };
  if (to === 'OPEN') {
    state.total_opens = prev.total_opens + 1;
    state.opened_at = isoTimestamp(nowMs);
  } else {
    delete state.opened_at;
  }
  return { state, transition: { from: prev.state, to, reason } };
}

/** Applies one iteration's outcome. */
export function recordIteration(prev: CircuitState, o: IterationOutcome, nowMs: number, limits: CircuitLimits): CircuitUpdate {
  const next: CircuitState = { ...prev, current_loop: o.loop };
  next.consecutive_permission_denials = o.permissionDenied ? prev.consecutive_permission_denials + 1 : 0;
  next.consecutive_failures = o.failed ? prev.consecutive_failures + 1 : 0;
  next.consecutive_same_error = o.hasErrors ? (o.errorsRepeat ? prev.consecutive_same_error + 1 : 1) : 0;
  const madeProgress = o.progress && !o.failed;
  if (madeProgress) {
    next.consecutive_no_progress = 0;
    next.last_progress_loop = o.loop;
  } else if (!o.failed && !o.askingQuestions) {
    // A question is neither progress nor stagnation; failures have their own counter.
    next.consecutive_no_progress = prev.consecutive_no_progress + 1;
  }

  if (prev.state === 'OPEN') return { state: { ...next, reason: prev.reason } };

  const hard = hardOpenReason(next, limits);
  if (prev.state === 'CLOSED') {
    if (hard) return moveTo(prev, next, 'OPEN', hard, nowMs);
    if (next.consecutive_no_progress >= limits.halfOpenAfter) {
      return moveTo(prev, next, 'HALF_OPEN', `Monitoring: ${next.consecutive_no_progress} loops without progress`, nowMs);
    }
    return { state: next };
  }
  // HALF_OPEN
  if (hard) {
    const reason = next.consecutive_no_progress >= limits.noProgress ? `No recovery, opening circuit after ${next.consecutive_no_progress} loops` : hard;
    return moveTo(prev, next, 'OPEN', reason, nowMs);
  }
  if (madeProgress && !o.verifyFailed) {
    const cleared = { ...next, consecutive_no_progress: 0, consecutive_same_error: 0, consecutive_failures: 0, consecutive_permission_denials: 0 };
    return moveTo(prev, cleared, 'CLOSED', 'Progress detected, circuit recovered', nowMs);
  }
  return { state: next };
}

function hardOpenReason(s: CircuitState, limits: CircuitLimits): string | undefined {
  if (s.consecutive_permission_denials >= limits.permissionDenials) {
    return `Permission denied in ${s.consecutive_permission_denials} consecutive loops - update ALLOWED_TOOLS in .ralphrc`;
  }
  if (s.consecutive_failures >= limits.failures) return `Agent call failed in ${s.consecutive_failures} consecutive loops`;
  if (s.consecutive_no_progress >= limits.noProgress) return `No progress detected in ${s.consecutive_no_progress} consecutive loops`;
  if (s.consecutive_same_error >= limits.sameError) return `Same error repeated in ${s.consecutive_same_error} consecutive loops`;
  return undefined;
}

/**
 * At startup: an OPEN circuit closes with CB_AUTO_RESET, or becomes HALF_OPEN
 * once the cooldown has passed (measured from opened_at, else last_change;
 * a timestamp in the future — clock skew — keeps it OPEN).
 */
export function applyCooldown(prev: CircuitState, nowMs: number, limits: CircuitLimits): CircuitUpdate {
  if (prev.state !== 'OPEN') return { state: prev };
  const fresh = { ...prev, consecutive_no_progress: 0, consecutive_same_error: 0, consecutive_failures: 0, consecutive_permission_denials: 0 };
  if (limits.autoReset) {
    const update = moveTo(prev, fresh, 'CLOSED', 'Auto-reset on startup (CB_AUTO_RESET=true)', nowMs);
    update.state.total_opens = prev.total_opens;
    return update;
  }
  const since = parseIso(prev.opened_at) ?? parseIso(prev.last_change);
  if (since === undefined) {
    if (limits.cooldownMinutes === 0) return moveTo(prev, fresh, 'HALF_OPEN', 'Cooldown recovery: 0m elapsed', nowMs);
    return { state: prev };
  }
  const elapsedMinutes = (nowMs - since) / 60_000;
  if (elapsedMinutes < 0 || elapsedMinutes < limits.cooldownMinutes) return { state: prev };
  const update = moveTo(prev, fresh, 'HALF_OPEN', `Cooldown recovery: ${Math.floor(elapsedMinutes)}m elapsed`, nowMs);
  update.state.total_opens = prev.total_opens;
  return update;
}

/** `ralph --reset-circuit`. */
export function resetCircuit(prev: CircuitState, nowMs: number): CircuitUpdate {
  const state = { ...initialCircuit(nowMs), reason: 'Manual reset via command line' };
  return { state, transition: { from: prev.state, to: 'CLOSED', reason: 'Manual reset via command line' } };
}

/** Minutes left before an OPEN circuit may be retried; undefined when not OPEN or unknown. */
export function cooldownRemainingMinutes(s: CircuitState, nowMs: number, limits: Pick<CircuitLimits, 'cooldownMinutes'>): number | undefined {
  if (s.state !== 'OPEN') return undefined;
  const since = parseIso(s.opened_at) ?? parseIso(s.last_change);
  if (since === undefined) return undefined;
  return Math.max(0, limits.cooldownMinutes - (nowMs - since) / 60_000);
}

export interface CircuitHistoryEntry {
  timestamp: string;
  loop: number;
  from_state: CircuitStateName;
  to_state: CircuitStateName;
  reason: string;
}

export const CIRCUIT_HISTORY_LIMIT = 100;

export function appendHistory(history: readonly CircuitHistoryEntry[], t: Transition, loop: number, nowMs: number): CircuitHistoryEntry[] {
  return [...history, { timestamp: isoTimestamp(nowMs), loop, from_state: t.from, to_state: t.to, reason: t.reason }].slice(-CIRCUIT_HISTORY_LIMIT);
}
