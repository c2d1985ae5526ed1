import { applyGateAction, createGate, gateActive, lastResult, reconcileGate, recordVerifyResult, type GateAction, type GateState } from '../core/verify-gate.js';
import { checkpointRequired } from '../core/checkpoint-policy.js';
import type { RollbackFacts } from '../core/rollback-notice.js';
import { formatEscalationSummary } from '../core/verify-escalation-summary.js';
import { formatBounceBack, type VerifyOutcome } from '../core/verify-feedback.js';
import { describeVerifyFailure } from '../core/verify-why-line.js';
import type { VerifySettings } from '../core/verify-settings.js';
import type { StatusVerify } from '../core/status-model.js';
import { isoTimestamp } from '../core/time-format.js';
import type { Clock, Logger, Notifier } from '../ports.js';
import type { SessionRecorder } from '../state/session-recorder.js';
import type { LoopUi } from './loop-deps.js';
import type { CheckpointGuard, GateRun, VerifyGate } from './verify-gate.js';

/** Git checkpoints as the gate needs them (implemented over src/infra/git-checkpoints.ts). */
export interface CheckpointPort {
  /** On failure `cause` and `fix` say, in plain words, why no checkpoint could be made and what to do. */
  create(loop: number): Promise<{ ok: true; id: string } | { ok: false; reason: string; cause?: string; fix?: string }>;
  drop(id: string): Promise<void>;
  /**
   * `reverted`: the files the rollback changed; `restoreCommand`: how to bring one back from the kept attempt;
   * `headMoved`: HEAD or another ref was put back. On failure, `changed` tells whether the rollback had
   * already changed the tree (a partial rollback).
   */
  rollback(
    id: string,
    label: string,
  ): Promise<
    | { ok: true; restored: boolean; attemptRef: string | null; reverted: readonly string[]; restoreCommand: string | null; headMoved: boolean }
    | { ok: false; reason: string; changed?: boolean }
  >;
  prune(keep: number): Promise<void>;
}

/** .ralph/.verify_gate and the answer `ralph --gate-action` leaves for a paused gate. */
export interface GateStorePort {
  load(): GateState | undefined;
  save(state: GateState): void;
  takeAction(): GateAction | undefined;
}

export interface VerifyGateStepDeps {
  settings: VerifySettings;
  runCommand(signal: AbortSignal): Promise<VerifyOutcome>;
  checkpoints?: CheckpointPort;
  /** Checkpoints kept for `ralph --restore` (failed attempts; with --backup, passed ones too). */
  keepCheckpoints: number;
  /** --backup: keep the checkpoints of passing iterations as well. */
  keepPassed: boolean;
  store: GateStorePort;
  logger: Logger;
  recorder: SessionRecorder;
  notifier: Notifier;
  clock: Clock;
  ui: LoopUi;
  interrupt: AbortSignal;
}

const ANSWER_POLL_MS = 1000;

/**
 * The verify gate inside the loop: checkpoint → agent → the user's
 * command → pass (drop the checkpoint) or bounce back (feedback, optional
 * rollback that keeps the attempt) → escalation after the last attempt.
 */
export class VerifyGateStep implements VerifyGate {
  private state: GateState;
  private checkpointId: string | undefined;
  private pendingFeedback: string | undefined;
  /** Attempt number of the latest run in this cycle (a pass resets the gate's own count). */
  private lastAttempt: number | undefined;
  /** The latest run, while the work tree cannot have changed since (no agent call in between). */
  private runOnCurrentTree: GateRun | undefined;
  /** The latest rollback, until the agent call after it has seen it. */
  private rolledBack: RollbackFacts | undefined;

  constructor(private readonly d: VerifyGateStepDeps) {
    const id = `gate-${d.clock.now().toString(36)}`;
    const stored = d.store.load();
    let state = reconcileGate(stored, d.settings.command, d.settings.maxAttempts, id);
    // An abort ends the run it happened in; the next run starts a fresh cycle.
    if (state.status === 'aborted') state = createGate(d.settings.command, d.settings.maxAttempts, id);
    this.state = state;
    d.store.save(state);
    const last = lastResult(state);
    if (state.status === 'pending' && last && !last.passed) this.pendingFeedback = formatBounceBack(last, state.attempt, state.maxAttempts);
  }

  get command(): string {
    return this.d.settings.command;
  }

  /** A verify command is set and the gate was not skipped (checkpoint-only gates, for --backup, are never active). */
  active(): boolean {
    return this.command !== '' && gateActive(this.state);
  }

  /** A gate left escalated by an earlier run needs an answer before the loop continues. */
  async resolvePausedGate(): Promise<'continue' | 'abort'> {
    if (this.state.status !== 'escalated' || this.command === '') return 'continue';
    this.d.logger.warn(`The verify gate is paused: '${this.command}' failed ${this.state.attempt}/${this.state.maxAttempts} times in an earlier run.`);
    const last = lastResult(this.state);
    if (last) this.d.ui.write(`\n${formatEscalationSummary({ result: last, attempts: this.state.attempt, maxAttempts: this.state.maxAttempts, tty: this.d.ui.tty })}\n\n`);
    const action = await this.answerEscalation();
    return action === 'abort' ? 'abort' : 'continue';
  }

  async probeBeforeWork(): Promise<boolean> {
    if (!this.active()) return false;
    this.d.logger.info(`Running: ${this.command} (once before any change, to see whether it can tell the task is done)`);
    const result = await this.d.runCommand(this.d.interrupt);
    return result.passed;
  }

  async beforeAgent(loop: number): Promise<CheckpointGuard> {
    this.runOnCurrentTree = undefined;
    const cp = this.d.checkpoints;
    if (!cp) return { ok: true };
    // A checkpoint whose iteration never reached the gate (the call failed) stays restorable, within the limit.
    if (this.checkpointId) await cp.prune(this.d.keepCheckpoints);
    const created = await cp.create(loop);
    if (!created.ok) {
      this.checkpointId = undefined;
      const { checkpoint, rollbackOnFail } = this.d.settings;
      if (checkpointRequired({ checkpoint, rollbackOnFail, gateActive: this.active(), hasCommand: this.command !== '' })) return { ok: false, reason: created.reason };
      this.d.logger.warn(`No checkpoint for loop #${loop}: ${created.reason}`);
      return { ok: true };
    }
    this.checkpointId = created.id;
    this.d.recorder.record('checkpoint.created', { iteration: loop, id: created.id });
    this.d.logger.debug(`Checkpoint ${created.id} created`);
    return { ok: true };
  }

  lastRollback(): RollbackFacts | undefined {
    return this.rolledBack;
  }

  async afterFailedCall(loop: number, filesChanged: number): Promise<boolean> {
    this.rolledBack = undefined;
    this.runOnCurrentTree = undefined;
    const cp = this.d.checkpoints;
    const id = this.checkpointId;
    this.checkpointId = undefined;
    if (filesChanged <= 0) {
      // Nothing to undo; the checkpoint stays restorable within the limit.
      if (cp && id) await cp.prune(this.d.keepCheckpoints);
      return false;
    }
    const files = `${filesChanged} file${filesChanged === 1 ? '' : 's'}`;
    if (!cp || !id) {
      this.d.logger.warn(`The agent call failed after changing ${files}; there is no checkpoint of this loop, so the changes stay in the work tree.`);
      return false;
    }
    if (!this.d.settings.rollbackOnFail) {
      this.d.logger.warn(`The agent call failed after changing ${files}; the changes stay in the work tree. 'ralph --restore ${id}' brings back the state before loop #${loop} (or run with --rollback-on-fail).`);
      await cp.prune(this.d.keepCheckpoints);
      return false;
    }
    this.d.logger.warn(`The agent call failed after changing ${files}: a failed attempt, rolled back like a failed verify.`);
    const restored = await this.rollback(loop, id, 'agent_failed');
    if (restored) await cp.drop(id);
    await cp.prune(this.d.keepCheckpoints);
    return restored;
  }

  async afterAgent(loop: number): Promise<GateRun> {
    this.rolledBack = undefined;
    const run = await this.verify(loop);
    const cp = this.d.checkpoints;
    const id = this.checkpointId;
    this.checkpointId = undefined;
    if (!cp || !id) return run;
    if (run.decision === 'passed' && !this.d.keepPassed) {
      await cp.drop(id);
      this.d.recorder.record('checkpoint.dropped', { iteration: loop, id });
    } else if ((run.decision === 'bounce' || run.decision === 'escalated_retry' || run.decision === 'escalated_abort') && this.d.settings.rollbackOnFail) {
      run.rolledBack = await this.rollback(loop, id, 'verify_failed');
      // The tree now equals the checkpoint; the attempt itself is kept under refs/ralph/attempts/.
      if (run.rolledBack) await cp.drop(id);
    }
    // Failed attempts (and, with --backup, passed ones) stay restorable, up to the configured number.
    await cp.prune(this.d.keepCheckpoints);
    return run;
  }

  async verifyCurrentTree(loop: number): Promise<GateRun> {
    // The tree has not changed since the last run: its result still holds.
    return this.runOnCurrentTree ?? this.verify(loop);
  }

  feedback(): string | undefined {
    return this.active() ? this.pendingFeedback : undefined;
  }

  status(): StatusVerify | null {
    if (this.command === '') return null;
    const last = lastResult(this.state);
    const states: Record<GateState['status'], StatusVerify['state']> = { pending: last ? (last.passed ? 'passing' : 'failing') : 'idle', passed: 'passing', escalated: 'escalated', skipped: 'skipped', aborted: 'aborted' };
    return {
      command: this.command,
      state: states[this.state.status],
      attempt: this.lastAttempt ?? this.state.attempt,
      max_attempts: this.state.maxAttempts,
      last: last
        ? { passed: last.passed, exit_code: last.exitCode, timed_out: last.timedOut, duration_ms: last.durationMs, output_tail: (last.stderr || last.stdout).slice(-500), at: isoTimestamp(last.at ?? this.d.clock.now()) }
        : null,
    };
  }

  private async verify(loop: number): Promise<GateRun> {
    const { logger } = this.d;
    if (!this.active()) return { decision: 'not_run', passed: false, attempt: this.state.attempt, maxAttempts: this.state.maxAttempts, exitCode: null, timedOut: false, durationMs: 0 };
    const attempt = this.state.attempt + 1;
    this.lastAttempt = attempt;
    logger.info(`Running: ${this.command} (verify attempt ${attempt}/${this.state.maxAttempts})`);
    const result = await this.d.runCommand(this.d.interrupt);
    if (this.d.interrupt.aborted) {
      // Cut short by Ctrl+C: not an attempt.
      return { decision: 'not_run', passed: false, attempt: this.state.attempt, maxAttempts: this.state.maxAttempts, exitCode: null, timedOut: false, durationMs: result.durationMs };
    }
    const recorded = recordVerifyResult(this.state, result, this.d.clock.now());
    this.state = recorded.state;
    const base = { passed: result.passed, attempt, maxAttempts: this.state.maxAttempts, exitCode: result.exitCode, timedOut: result.timedOut, durationMs: result.durationMs };
    this.d.recorder.record('verify.result', {
      iteration: loop,
      command: this.command,
      attempt,
      max_attempts: this.state.maxAttempts,
      passed: result.passed,
      exit_code: result.exitCode,
      timed_out: result.timedOut,
      duration_ms: result.durationMs,
      explanation: result.explanation ?? null,
    });
    let decision: GateRun['decision'];
    if (recorded.decision === 'passed') {
      logger.success(`✅ Verify passed: ${this.command} (${result.durationMs} ms)`);
      this.pendingFeedback = undefined;
      decision = 'passed';
    } else if (recorded.decision === 'bounce') {
      logger.warn(`❌ Verify failed (attempt ${this.state.attempt}/${this.state.maxAttempts}): ${describeVerifyFailure(result)}; the failure goes back to the agent`);
      this.pendingFeedback = formatBounceBack(result, this.state.attempt, this.state.maxAttempts);
      decision = 'bounce';
    } else {
      this.d.ui.write(`\n${formatEscalationSummary({ result, attempts: this.state.attempt, maxAttempts: this.state.maxAttempts, tty: this.d.ui.tty })}\n\n`);
      this.d.notifier.notify('verify_escalation', `'${this.command}' failed ${this.state.attempt}/${this.state.maxAttempts} times; Ralph needs a decision`);
      this.d.store.save(this.state);
      const action = await this.answerEscalation();
      decision = action === 'retry' ? 'escalated_retry' : action === 'skip' ? 'escalated_skip' : 'escalated_abort';
      if (action === 'retry') this.pendingFeedback = formatBounceBack(result, this.state.maxAttempts, this.state.maxAttempts);
    }
    this.d.store.save(this.state);
    const run = { ...base, decision };
    this.runOnCurrentTree = run;
    return run;
  }

  /** Retry, skip or abort: the TTY prompt (or `ralph --gate-action` from another terminal), else --on-verify-exhausted. */
  private async answerEscalation(): Promise<GateAction> {
    const configured = this.d.settings.onExhausted;
    let action: GateAction;
    if (configured !== 'ask') action = configured;
    else if (this.d.ui.tty) {
      action = await this.askOrAwaitAnswer();
      if (this.d.interrupt.aborted) {
        // Stopped before anyone answered: the question stays open for the next run.
        this.state = { ...this.state, status: 'escalated' };
        this.d.store.save(this.state);
        return 'abort';
      }
    } else {
      action = this.d.store.takeAction() ?? 'abort';
      if (action === 'abort') this.d.logger.error('Verify attempts exhausted and nobody is at a terminal to decide: stopping.');
    }
    this.d.logger.info(`Verify gate: ${action}`);
    // An abort ends this run only: the next run, after the user fixed the cause, starts a fresh cycle.
    // A gate stays paused (escalated) only when the run ended while the question was still open.
    this.state = applyGateAction(this.state, action);
    this.d.store.save(this.state);
    return action;
  }

  private async askOrAwaitAnswer(): Promise<GateAction> {
    const stop = new AbortController();
    const fromFile = (async (): Promise<GateAction> => {
      for (;;) {
        const answer = this.d.store.takeAction();
        if (answer) return answer;
        try {
          await this.d.clock.sleep(ANSWER_POLL_MS, stop.signal);
        } catch {
          return 'abort';
        }
      }
    })();
    const fromPrompt = this.d.ui.ask('Your choice:', ['retry', 'skip', 'abort'] as const, 'abort', 24 * 3_600_000);
    try {
      return await Promise.race([fromPrompt, fromFile]);
    } finally {
      stop.abort();
    }
  }

  private async rollback(loop: number, id: string, cause: RollbackFacts['cause']): Promise<boolean> {
    const result = await (this.d.checkpoints as CheckpointPort).rollback(id, `loop ${loop}`);
    if (!result.ok) {
      // Only an untouched tree still holds the attempt as it was; a partial rollback says so itself.
      const state = result.changed ? 'The rollback is incomplete.' : "Nothing was rolled back: the attempt's changes are still in the work tree.";
      this.d.logger.error(`Rollback to checkpoint ${id} failed: ${result.reason}. ${state}`);
      return false;
    }
    const reverted = result.reverted;
    if (result.restored) this.rolledBack = { loop, checkpointId: id, cause, files: reverted, attemptRef: result.attemptRef, headMoved: result.headMoved };
    this.d.recorder.record('checkpoint.restored', { iteration: loop, id, attempt_ref: result.attemptRef, cause, reverted });
    const files = reverted.length > 0 ? ` (${reverted.length} file${reverted.length === 1 ? '' : 's'} reverted: ${reverted.slice(0, 10).join(', ')}${reverted.length > 10 ? ', …' : ''})` : '';
    this.d.logger.warn(`↩️  Rolled back to the state before loop #${loop}${files}${result.attemptRef ? `; the failed attempt is kept at ${result.attemptRef}` : ''}`);
    if (result.restoreCommand && reverted.length > 0) this.d.logger.warn(`   Bring a reverted file back with: ${result.restoreCommand}`);
    return result.restored;
  }
}
