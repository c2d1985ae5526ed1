import { recordVerifyResult, type GateAction, type GateState } from '../core/verify-gate.js';
import type { VerifyOutcome } from '../core/verify-feedback.js';

/** The checkpoint taken before the work an attempt verifies, and what to do with it. */
export interface AttemptCheckpoint<R> {
  /** Keep a passed attempt's checkpoint too (--backup). */
  keepPassed: boolean;
  rollbackOnFail: boolean;
  /**
   * After a rollback the tree equals the checkpoint: the loop drops it (the next iteration takes
   * a new one), the agent tool keeps it as the baseline its retry starts from.
   */
  dropAfterRollback: boolean;
  drop(): Promise<void>;
  /** Restores the checkpoint (`state`: the gate with the failure recorded); undefined when nothing was restored. */
  rollback(state: GateState): Promise<R | undefined>;
}

export type AttemptDecision = 'passed' | 'bounce' | 'escalate';

export interface GateAttemptInput<R> {
  gate: GateState;
  /** Runs the verify command; undefined when it was cancelled, which is no attempt. */
  run(): Promise<VerifyOutcome | undefined>;
  now(): number;
  /** The result is recorded; called before any answer is sought or the checkpoint touched. */
  onRecorded?(recorded: { state: GateState; result: VerifyOutcome; attempt: number; decision: AttemptDecision }): void;
  /** The last attempt failed: how the gate goes on. Without it the escalation waits for a later answer. */
  escalate?(state: GateState, result: VerifyOutcome): Promise<{ state: GateState; action: GateAction }>;
  checkpoint?: AttemptCheckpoint<R>;
}

export type GateAttempt<R> =
  | { kind: 'cancelled' }
  | {
      kind: 'recorded';
      state: GateState;
      result: VerifyOutcome;
      /** The attempt's number in the cycle (1 for the first run after a pass or retry). */
      attempt: number;
      decision: AttemptDecision;
      /** The answer to an escalation, when one was sought. */
      action?: GateAction;
      rolledBack?: R;
      dropped: boolean;
    };

/**
 * One attempt of a verify gate, as the loop's verify step and the agents' `verify` tool both
 * run it: run the command → record the result (pass, bounce, or escalate on the last allowed
 * failure) → on a pass drop the checkpoint, on a failure roll back to it when asked to. A
 * skipped escalation leaves the tree as it is: the user chose to go on without the gate.
 */
export async function runGateAttempt<R>(input: GateAttemptInput<R>): Promise<GateAttempt<R>> {
  const attempt = input.gate.attempt + 1;
  const result = await input.run();
  if (!result) return { kind: 'cancelled' };
  const recorded = recordVerifyResult(input.gate, result, input.now());
  const decision: AttemptDecision = recorded.decision === 'passed' || recorded.decision === 'bounce' ? recorded.decision : 'escalate';
  let state = recorded.state;
  input.onRecorded?.({ state, result, attempt, decision });
  let action: GateAction | undefined;
  if (decision === 'escalate' && input.escalate) ({ state, action } = await input.escalate(state, result));
  const outcome: Extract<GateAttempt<R>, { kind: 'recorded' }> = {
    kind: 'recorded',
    state,
    result,
    attempt,
    decision,
    ...(action ? { action } : {}),
    dropped: false,
  };
  const cp = input.checkpoint;
  if (!cp) return outcome;
  if (decision === 'passed') {
    if (!cp.keepPassed) {
      await cp.drop();
      outcome.dropped = true;
    }
  } else if (cp.rollbackOnFail && action !== 'skip') {
    const restored = await cp.rollback(state);
    if (restored !== undefined) {
      outcome.rolledBack = restored;
      if (cp.dropAfterRollback) {
        await cp.drop();
        outcome.dropped = true;
      }
    }
  }
  return outcome;
}
