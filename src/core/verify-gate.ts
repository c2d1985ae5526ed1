/**
 * The verify gate as a pure state machine.
 * The loop persists GateState in `.ralph/.verify_gate` and feeds it one verify
 * result per iteration:
 *
 *   pending ──fail, attempts left──▶ pending   (decision 'bounce': feed the failure back)
 *   pending ──fail, attempt = max──▶ escalated (decision 'escalate': ask retry/skip/abort)
 *   any ─────pass──────────────────▶ passed    (attempt count cleared for the next cycle)
 *   escalated ──retry──▶ pending, attempt 0, results []
 *   any ──skip──▶ skipped (the gate no longer blocks)   any ──abort──▶ aborted
 */
import type { VerifyOutcome } from './verify-feedback.js';

export type GateStatus = 'pending' | 'passed' | 'escalated' | 'skipped' | 'aborted';
export type GateAction = 'retry' | 'skip' | 'abort';
/** 'ignored': the gate was skipped or aborted, so the result changes nothing. */
export type GateDecision = 'passed' | 'bounce' | 'escalate' | 'ignored';

/** A verify result as kept in the gate file: output tails bounded so the file stays small. */
export interface VerifyResultSummary extends VerifyOutcome {
  /** Epoch ms of the run, when the caller knows it. */
  at?: number;
}

export interface GateState {
  gateId: string;
  command: string;
  /** Failed attempts in the current cycle (0 after a pass or a retry). */
  attempt: number;
  maxAttempts: number;
  /** The most recent results, oldest first, at most MAX_GATE_RESULTS. */
  results: VerifyResultSummary[];
  status: GateStatus;
}

export const MAX_GATE_RESULTS = 5;
/** Characters of each stream kept per stored result (what the prompt uses). */
export const SUMMARY_TAIL_CHARS = 2000;
export const GATE_ACTIONS: readonly GateAction[] = ['retry', 'skip', 'abort'];
export const GATE_STATUSES = ['pending', 'passed', 'escalated', 'skipped', 'aborted'] as const satisfies readonly GateStatus[];

export function createGate(command: string, maxAttempts: number, id: string): GateState {
  return { gateId: id, command, attempt: 0, maxAttempts: Math.max(1, Math.floor(maxAttempts)), results: [], status: 'pending' };
}

/** The end of a command's output as the gate file keeps it (a cut is marked, never a broken character). */
export function storedTail(text: string): string {
  return tail(text, SUMMARY_TAIL_CHARS);
}

function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(-max);
  const code = cut.charCodeAt(0);
  if (code >= 0xdc00 && code <= 0xdfff) cut = cut.slice(1);
  return `[...truncated, showing last ${cut.length} chars...]\n${cut}`;
}

export function summarizeVerifyResult(result: VerifyOutcome, at?: number): VerifyResultSummary {
  const summary: VerifyResultSummary = {
    command: result.command,
    passed: result.passed,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    stdout: storedTail(result.stdout),
    stderr: storedTail(result.stderr),
  };
  if (result.explanation !== undefined) summary.explanation = result.explanation;
  if (result.timeoutMs !== undefined) summary.timeoutMs = result.timeoutMs;
  if (at !== undefined) summary.at = at;
  return summary;
}

function appendResult(results: readonly VerifyResultSummary[], summary: VerifyResultSummary): VerifyResultSummary[] {
  return [...results, summary].slice(-MAX_GATE_RESULTS);
}

/**
 * Whether the gate holds completion back: it does until the latest run on the
 * current tree passed (pending, escalated), and for good once aborted; a passed
 * or skipped gate does not.
 */
export function gateBlocks(state: GateState): boolean {
  return state.status === 'pending' || state.status === 'escalated' || state.status === 'aborted';
}

/** Whether the loop should run the verify command at all. */
export function gateActive(state: GateState): boolean {
  return state.status !== 'skipped' && state.status !== 'aborted';
}

/**
 * Records one verify run. A pass clears the attempt count; a failure below the
 * limit bounces back; the failure that reaches the limit escalates. A skipped or
 * aborted gate is returned unchanged with decision 'ignored'.
 */
export function recordVerifyResult(state: GateState, result: VerifyOutcome, at?: number): { state: GateState; decision: GateDecision } {
  if (!gateActive(state)) return { state, decision: 'ignored' };
  const results = appendResult(state.results, summarizeVerifyResult(result, at));
  if (result.passed) return { state: { ...state, attempt: 0, results, status: 'passed' }, decision: 'passed' };
  const attempt = state.attempt + 1;
  if (attempt >= state.maxAttempts) return { state: { ...state, attempt, results, status: 'escalated' }, decision: 'escalate' };
  return { state: { ...state, attempt, results, status: 'pending' }, decision: 'bounce' };
}

/** The user's answer to an escalated gate (`ralph --gate-action`, the TTY prompt, or --on-verify-exhausted). */
export function applyGateAction(state: GateState, action: GateAction): GateState {
  switch (action) {
    case 'retry':
      return { ...state, attempt: 0, results: [], status: 'pending' };
    case 'skip':
      return { ...state, status: 'skipped' };
    case 'abort':
      return { ...state, status: 'aborted' };
  }
}

export function parseGateAction(value: unknown): GateAction | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  return GATE_ACTIONS.find((a) => a === text);
}

/**
 * Carries a stored gate over to the current settings: a different command starts
 * a new gate; a different attempt limit keeps the history and re-checks escalation.
 */
export function reconcileGate(stored: GateState | undefined, command: string, maxAttempts: number, newId: string): GateState {
  if (!stored || stored.command !== command) return createGate(command, maxAttempts, newId);
  if (stored.maxAttempts === maxAttempts) return stored;
  const next = { ...stored, maxAttempts: Math.max(1, Math.floor(maxAttempts)) };
  if (next.status === 'escalated' && next.attempt < next.maxAttempts) next.status = 'pending';
  if (next.status === 'pending' && next.attempt >= next.maxAttempts) next.status = 'escalated';
  return next;
}

/** The result the feedback builders need from the gate's latest stored run. */
export function lastResult(state: GateState): VerifyResultSummary | undefined {
  return state.results.at(-1);
}
