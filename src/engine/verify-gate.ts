import type { StatusVerify } from '../core/status-model.js';

/**
 * The verify gate as the loop sees it (spec §8): a checkpoint before the
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

export interface VerifyGate {
  readonly command: string;
  /** At startup: a gate an earlier run left escalated needs an answer first. */
  resolvePausedGate(): Promise<'continue' | 'abort'>;
  /** The gate blocks completion (configured and not skipped). */
  active(): boolean;
  /** Before the agent runs: checkpoint the work tree when enabled. */
  beforeAgent(loop: number): Promise<void>;
  /** After an agent call that did work: run the command, decide, roll back or drop the checkpoint. */
  afterAgent(loop: number): Promise<GateRun>;
  /** Runs the command on the current tree (plan_complete needs ground truth). */
  verifyCurrentTree(loop: number): Promise<GateRun>;
  /** Bounce-back or escalation text for the next iteration's context. */
  feedback(): string | undefined;
  status(): StatusVerify | null;
}
