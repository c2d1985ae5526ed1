import type { RollbackFacts } from '../core/rollback-notice.js';
import type { StatusVerify } from '../core/status-model.js';

/**
 * The verify gate as the loop sees it: a checkpoint before the
 * agent, the user's command after it, bounce-back feedback, escalation, and
 * rollback. Implemented in engine/verify-gate-step.ts.
 */
export type GateDecision = 'passed' | 'bounce' | 'escalated_retry' | 'escalated_skip' | 'escalated_abort' | 'not_run';

export interface GateRun {
  decision: GateDecision;
  passed: boolean;
  attempt: number;
  maxAttempts: number;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The work tree was restored to the checkpoint (rollback on failure). */
  rolledBack?: boolean;
}

/** Whether the iteration may start: it may not when it needs a checkpoint and none could be made. */
export type CheckpointGuard = { ok: true } | { ok: false; reason: string };

export interface VerifyGate {
  readonly command: string;
  /** At startup: a gate an earlier run left escalated needs an answer first. */
  resolvePausedGate(): Promise<'continue' | 'abort'>;
  /** The gate blocks completion (configured and not skipped). */
  active(): boolean;
  /** Before the agent runs: checkpoint the work tree when enabled; refuses when a needed checkpoint cannot be made. */
  beforeAgent(loop: number): Promise<CheckpointGuard>;
  /** After an agent call that did work: run the command, decide, roll back or drop the checkpoint. */
  afterAgent(loop: number): Promise<GateRun>;
  /** After an agent call that failed having changed files: a failed attempt, rolled back when asked to. Returns whether it was. */
  afterFailedCall(loop: number, filesChanged: number): Promise<boolean>;
  /** Why the latest rollback could not finish; the loop stops on it rather than go on from a half-restored tree. */
  rollbackFailure(): string | undefined;
  /** The latest rollback, until an agent call after it has been told. */
  lastRollback(): RollbackFacts | undefined;
  /**
   * Runs the command once before any agent call, without counting an attempt:
   * true when it already passes (then it cannot tell whether a task is done).
   */
  probeBeforeWork(): Promise<boolean>;
  /** Runs the command on the current tree (plan_complete needs ground truth). */
  verifyCurrentTree(loop: number): Promise<GateRun>;
  /** Bounce-back or escalation text for the next iteration's context. */
  feedback(): string | undefined;
  status(): StatusVerify | null;
}
