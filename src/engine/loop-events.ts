import type { AgentOutcome, AgentProgress, AgentResult } from '../agent-result.js';
import type { CircuitState, Transition } from '../core/circuit-breaker.js';
import type { ExitReason } from '../core/exit-reasons.js';
import type { CallResult } from '../core/iteration-verdict.js';
import type { WaitRecord } from '../core/rate-limiter.js';
import type { Analysis, ProgressFacts } from '../core/response-analyzer.js';
import type { RollbackFacts } from '../core/rollback-notice.js';
import type { StatusTotals } from '../core/status-model.js';
import type { VerifyOutcome } from '../core/verify-feedback.js';
import type { Refusal } from '../core/sandbox-refusals.js';
import type { TransientCause } from '../core/transient-api-error.js';
import type { RunSnapshot } from './run-snapshot.js';
import type { GateRun } from './verify-gate.js';

/**
 * What the loop says while it runs. The engine decides and emits these; subscribers wired in
 * src/cli turn them into everything a user sees: the terminal and ralph.log, session.jsonl,
 * status.json / progress.json / metrics.jsonl / live.log, and desktop notifications. The names
 * of the recorded events are the `event` values of session.jsonl.
 */
export type LoopEvent =
  | LoopStart
  | { type: 'iteration.start'; iteration: number }
  | { type: 'call.start'; iteration: number; call: number; backend: string; timeoutMinutes: number }
  | { type: 'call.running'; iteration: number; startedAt: number }
  /** What the agent is doing, as its backend reported it; the live view renders it. */
  | { type: 'call.progress'; iteration: number; event: AgentProgress }
  | CallTick
  | { type: 'call.end'; iteration: number; run?: Pick<AgentResult, 'durationMs' | 'end' | 'exitCode'> }
  | { type: 'agent.result'; iteration: number; outcome: AgentOutcome['kind']; run: AgentResult }
  | { type: 'analysis'; iteration: number; analysis: Analysis; progress: ProgressFacts }
  | VerifyResult
  | { type: 'verify.escalated'; command: string; result: VerifyOutcome; attempts: number; maxAttempts: number; fromEarlierRun: boolean }
  | { type: 'checkpoint.created'; iteration: number; id: string }
  | { type: 'checkpoint.dropped'; iteration: number; id: string }
  | CheckpointRestored
  | { type: 'circuit.transition'; iteration: number; transition: Transition }
  | { type: 'circuit.halt'; circuit: CircuitState }
  | { type: 'wait.start'; iteration: number; wait: WaitRecord; now: number }
  | { type: 'wait.tick'; wait: WaitRecord; now: number }
  | { type: 'wait.end'; iteration: number; wait: WaitRecord; end: WaitEnd }
  | { type: 'limit.usage'; message: string; until: number }
  | { type: 'api_retry.gave_up'; message: string }
  /** The sandbox (--sandbox) refused the agent something during the iteration's call. */
  | { type: 'sandbox.refused'; iteration: number; refusal: Refusal }
  | IterationEnd
  /** What the loop makes of the iteration just ended: go on (stop null) or stop, and why. Right after its verdict, with no wait between. */
  | { type: 'iteration.decided'; iteration: number; stop: ExitReason | null; detail: string | null }
  /** The run state changed (status.json). `run` is a frozen copy: it stays as it was, however late it is read. */
  | { type: 'status'; run: RunSnapshot }
  | Notice
  | LoopStop
  | LoopExit
  | { type: 'loop.crash'; iterations: number; message: string }
  | ReviewStart
  | ReviewEnd;

export type WaitEnd = 'done' | 'interrupted' | 'stopped';

export interface LoopStart {
  type: 'loop.start';
  project: string;
  backend: string;
  dryRun: boolean;
  maxLoops: number;
  maxCallsPerHour: number;
  timeoutMinutes: number;
  verifyCommand: string | null;
  task: string | null;
  pid: number;
}

/** A beat of the clock while the agent works: a sign of life redraws on it, progress.json follows. */
export interface CallTick {
  type: 'call.tick';
  iteration: number;
  startedAt: number;
  now: number;
}

export interface VerifyResult {
  type: 'verify.result';
  iteration: number;
  command: string;
  attempt: number;
  maxAttempts: number;
  result: VerifyOutcome;
  /** escalate: the last attempt failed; a `verify.escalated` follows. */
  decision: 'passed' | 'bounce' | 'escalate';
}

export interface CheckpointRestored {
  type: 'checkpoint.restored';
  iteration: number;
  id: string;
  attemptRef: string | null;
  cause: RollbackFacts['cause'];
  reverted: readonly string[];
  restoreCommand: string | null;
  /** Refs the rollback moved back, and refs it left as they are (each with the command that restores it). */
  refsMoved: readonly string[];
  refsLeft: readonly string[];
  notes: readonly string[];
}

export interface IterationEnd {
  type: 'iteration.end';
  iteration: number;
  outcome: CallResult | 'dry_run';
  startedAt: number;
  endedAt: number;
  /** How the iteration went as a whole; absent for a dry run. */
  verdict?: { label: string; success: boolean };
  /** The agent call of the iteration and what came of it; absent for a dry run. */
  call?: { run: AgentResult; analysis?: Analysis; progress?: ProgressFacts; gate?: GateRun };
}

/**
 * A situation the person watching should hear about that is no step of the vocabulary above:
 * `code` names it, the other fields are its facts. The terminal presenter words it.
 */
interface NoticeFacts {
  /** Plain-text output carries no session id, cost or token counts. */
  'agent.output_format': object;
  'api_retry.exhausted': { maxAttempts: number; message: string };
  'api_retry.waiting': { cause: TransientCause; status: number | undefined; attempt: number; maxAttempts: number; delayMs: number; message: string };
  'call.failed': { message: string; outputLogPath: string };
  'call.timeout': { timeoutMinutes: number; productive: boolean; filesChanged: number };
  /** A failed call changed files: they stay (no checkpoint, or no --rollback-on-fail), or are rolled back. */
  'call.failed_with_changes': { loop: number; filesChanged: number; handling: 'no_checkpoint' | 'kept' | 'rolled_back'; checkpointId?: string };
  'checkpoint.skipped': { loop: number; reason: string };
  'circuit.retry_next': object;
  'dry_run.command': { description: string };
  'dry_run.format': { format: string; timeoutMinutes: number };
  'dry_run.review': { backend: string; model: string | null; readOnly: string | null; maxRejected: number };
  'dry_run.review_command': { description: string };
  'exit.check': { testLoops: number; doneSignals: number; completionIndicators: number; unacceptedClaims: number };
  /** Why the exit rules let the loop go on (their own words). */
  'exit.note': { note: string };
  'gate.action': { action: string };
  'gate.paused': { command: string; attempts: number; maxAttempts: number };
  'gate.passes_before_work': { command: string };
  'gate.unattended': object;
  'plan.verify_fails': object;
  'rollback.failed': { id: string; reason: string; partial: boolean };
  'session.expired': { ageHours: number; maxHours: number };
  /** The saved session was made by another backend's agent: it is not resumed. */
  'session.other_agent': { sessionBackend: string; sessionId: string };
  'session.resumed': { sessionId: string; ageHours: number };
  'task.continues': { why: 'exit_signal_false' | 'no_change' };
  'tokens.used': { tokens: number };
  'verify.probe': { command: string };
  'verify.running': { command: string; attempt: number; maxAttempts: number };
  'wait.resumed': object;
}

export type NoticeCode = keyof NoticeFacts;

export type Notice = { [K in NoticeCode]: { type: 'notice'; code: K } & NoticeFacts[K] }[NoticeCode];

/** A notice as the engine says it (without `type`). */
export type NoticeBody = { [K in NoticeCode]: { code: K } & NoticeFacts[K] }[NoticeCode];

/** The loop has decided to stop: why, in words and for notifications. */
export interface LoopStop {
  type: 'loop.stop';
  reason: ExitReason;
  /** The reason's detail (or its standard description). */
  detail: string;
  /** The signal behind `interrupted`. */
  signal: string;
  /** For `permission_denied`: what was denied and the ALLOWED_TOOLS line that would allow it. */
  permissionHalt?: { denied: readonly string[]; allowedLine: string; suggestions: readonly string[] };
}

/** The loop's last word: the totals of the run. */
export interface LoopExit {
  type: 'loop.exit';
  reason: ExitReason;
  exitCode: number;
  iterations: number;
  startedAt: number;
  endedAt: number;
  message: string;
  totals: Readonly<StatusTotals>;
}

/** The loop would end complete: the reviewer's call starts (--review). */
export interface ReviewStart {
  type: 'review.start';
  iteration: number;
  /** The review's number in this run (1 for the first). */
  review: number;
  backend: string;
  /** The completion the review stands between. */
  completion: ExitReason;
}

/** The reviewer's verdict and what the loop does with it. */
export interface ReviewEnd {
  type: 'review.end';
  iteration: number;
  review: number;
  /** The reviewer's agent. */
  backend: string;
  verdict: 'APPROVED' | 'CHANGES_REQUESTED';
  /** The reply carried a valid verdict block (false: counted as changes requested). */
  given: boolean;
  findings: readonly string[];
  decision: 'end' | 'continue' | 'stop';
  rejectedInARow: number;
  maxRejected: number;
  /** What the reviewer's tools refused it (it tried to write). */
  refused: readonly string[];
  run: AgentResult;
}
