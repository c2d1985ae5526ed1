import { applyGateAction, createGate, gateActive, lastResult, reconcileGate, type GateAction, type GateState } from '../core/verify-gate.js';
import { checkpointRequired } from '../core/checkpoint-policy.js';
import type { RollbackFacts } from '../core/rollback-notice.js';
import { formatBounceBack, type VerifyOutcome } from '../core/verify-feedback.js';
import type { VerifySettings } from '../config/verify-settings.js';
import type { StatusVerify } from '../core/status-model.js';
import { isoTimestamp } from '../core/time-format.js';
import { runGateAttempt } from './gate-attempt.js';
import type { NoticeBody } from './loop-events.js';
import type { CheckpointPort, EngineIo, GateStorePort } from './ports.js';
import type { CheckpointGuard, GateRun, VerifyGate } from './verify-gate.js';

export interface VerifyGateStepDeps extends EngineIo {
  settings: VerifySettings;
  runCommand(signal: AbortSignal): Promise<VerifyOutcome>;
  checkpoints?: CheckpointPort;
  /** Checkpoints kept for `ralph --restore` (failed attempts; with --backup, passed ones too). */
  keepCheckpoints: number;
  /** --backup: keep the checkpoints of passing iterations as well. */
  keepPassed: boolean;
  store: GateStorePort;
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
  /** Why a rollback could not finish (the loop stops). */
  private failedRollback: string | undefined;

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

  private notice(notice: NoticeBody): void {
    this.d.emit({ type: 'notice', ...notice });
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
    this.notice({ code: 'gate.paused', command: this.command, attempts: this.state.attempt, maxAttempts: this.state.maxAttempts });
    const last = lastResult(this.state);
    if (last)
      this.d.emit({
        type: 'verify.escalated',
        command: this.command,
        result: last,
        attempts: this.state.attempt,
        maxAttempts: this.state.maxAttempts,
        fromEarlierRun: true,
      });
    const action = await this.answerEscalation();
    return action === 'abort' ? 'abort' : 'continue';
  }

  async probeBeforeWork(): Promise<boolean> {
    if (!this.active()) return false;
    this.notice({ code: 'verify.probe', command: this.command });
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
      if (checkpointRequired({ checkpoint, rollbackOnFail, gateActive: this.active(), hasCommand: this.command !== '' }))
        return { ok: false, reason: created.reason };
      this.notice({ code: 'checkpoint.skipped', loop, reason: created.reason });
      return { ok: true };
    }
    this.checkpointId = created.id;
    this.d.emit({ type: 'checkpoint.created', iteration: loop, id: created.id });
    return { ok: true };
  }

  lastRollback(): RollbackFacts | undefined {
    return this.rolledBack;
  }

  rollbackFailure(): string | undefined {
    return this.failedRollback;
  }

  /** Notes the refs the attempt left, before anything else (the verify command, other people) can move them. */
  private async attemptEnded(id: string | undefined): Promise<void> {
    if (id && this.d.settings.rollbackOnFail) await this.d.checkpoints?.attemptEnded?.(id);
  }

  async afterFailedCall(loop: number, filesChanged: number): Promise<boolean> {
    this.rolledBack = undefined;
    this.runOnCurrentTree = undefined;
    const cp = this.d.checkpoints;
    const id = this.checkpointId;
    this.checkpointId = undefined;
    await this.attemptEnded(id);
    if (filesChanged <= 0) {
      // Nothing to undo; the checkpoint stays restorable within the limit.
      if (cp && id) await cp.prune(this.d.keepCheckpoints);
      return false;
    }
    if (!cp || !id) {
      this.notice({ code: 'call.failed_with_changes', loop, filesChanged, handling: 'no_checkpoint' });
      return false;
    }
    if (!this.d.settings.rollbackOnFail) {
      this.notice({ code: 'call.failed_with_changes', loop, filesChanged, handling: 'kept', checkpointId: id });
      await cp.prune(this.d.keepCheckpoints);
      return false;
    }
    this.notice({ code: 'call.failed_with_changes', loop, filesChanged, handling: 'rolled_back', checkpointId: id });
    const restored = await this.rollback(loop, id, 'agent_failed');
    if (restored) await cp.drop(id);
    await cp.prune(this.d.keepCheckpoints);
    return restored;
  }

  async afterAgent(loop: number): Promise<GateRun> {
    this.rolledBack = undefined;
    const cp = this.d.checkpoints;
    const id = this.checkpointId;
    this.checkpointId = undefined;
    await this.attemptEnded(id);
    const run = await this.verify(loop, id);
    // Failed attempts (and, with --backup, passed ones) stay restorable, up to the configured number.
    if (cp && id) await cp.prune(this.d.keepCheckpoints);
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
    const states: Record<GateState['status'], StatusVerify['state']> = {
      pending: last ? (last.passed ? 'passing' : 'failing') : 'idle',
      passed: 'passing',
      escalated: 'escalated',
      skipped: 'skipped',
      aborted: 'aborted',
    };
    return {
      command: this.command,
      state: states[this.state.status],
      attempt: this.lastAttempt ?? this.state.attempt,
      max_attempts: this.state.maxAttempts,
      last: last
        ? {
            passed: last.passed,
            exit_code: last.exitCode,
            timed_out: last.timedOut,
            duration_ms: last.durationMs,
            output_tail: (last.stderr || last.stdout).slice(-500),
            at: isoTimestamp(last.at ?? this.d.clock.now()),
          }
        : null,
    };
  }

  private notRun(durationMs: number): GateRun {
    return {
      decision: 'not_run',
      passed: false,
      attempt: this.state.attempt,
      maxAttempts: this.state.maxAttempts,
      exitCode: null,
      timedOut: false,
      durationMs,
    };
  }

  /** One attempt on the current tree; with `checkpointId`, the checkpoint it verifies is dropped or rolled back to. */
  private async verify(loop: number, checkpointId?: string): Promise<GateRun> {
    if (!this.active()) return this.notRun(0);
    const attempt = this.state.attempt + 1;
    this.lastAttempt = attempt;
    this.notice({ code: 'verify.running', command: this.command, attempt, maxAttempts: this.state.maxAttempts });
    let cancelledAfterMs = 0;
    const cp = this.d.checkpoints;
    const outcome = await runGateAttempt<true>({
      gate: this.state,
      now: () => this.d.clock.now(),
      run: async () => {
        const result = await this.d.runCommand(this.d.interrupt);
        if (!this.d.interrupt.aborted) return result;
        // Cut short by Ctrl+C: not an attempt.
        cancelledAfterMs = result.durationMs;
        return undefined;
      },
      onRecorded: ({ state, result, decision }) => {
        this.state = state;
        this.d.emit({ type: 'verify.result', iteration: loop, command: this.command, attempt, maxAttempts: state.maxAttempts, result, decision });
        if (decision === 'passed') this.pendingFeedback = undefined;
        else if (decision === 'bounce') this.pendingFeedback = formatBounceBack(result, state.attempt, state.maxAttempts);
        else
          this.d.emit({
            type: 'verify.escalated',
            command: this.command,
            result,
            attempts: state.attempt,
            maxAttempts: state.maxAttempts,
            fromEarlierRun: false,
          });
      },
      escalate: async (state, result) => {
        this.d.store.save(state);
        const action = await this.answerEscalation();
        if (action === 'retry') this.pendingFeedback = formatBounceBack(result, this.state.maxAttempts, this.state.maxAttempts);
        return { state: this.state, action };
      },
      ...(cp && checkpointId
        ? {
            checkpoint: {
              keepPassed: this.d.keepPassed,
              rollbackOnFail: this.d.settings.rollbackOnFail,
              // The tree now equals the checkpoint; the attempt itself is kept under refs/ralph/attempts/.
              dropAfterRollback: true,
              drop: () => cp.drop(checkpointId),
              rollback: async () => ((await this.rollback(loop, checkpointId, 'verify_failed')) ? (true as const) : undefined),
            },
          }
        : {}),
    });
    if (outcome.kind === 'cancelled') return this.notRun(cancelledAfterMs);
    this.state = outcome.state;
    this.d.store.save(this.state);
    const { result } = outcome;
    const decision: GateRun['decision'] = outcome.decision === 'escalate' ? `escalated_${outcome.action ?? 'abort'}` : outcome.decision;
    if (decision === 'passed' && outcome.dropped && checkpointId) this.d.emit({ type: 'checkpoint.dropped', iteration: loop, id: checkpointId });
    const run: GateRun = {
      decision,
      passed: result.passed,
      attempt,
      maxAttempts: this.state.maxAttempts,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      ...(outcome.rolledBack ? { rolledBack: true } : {}),
    };
    this.runOnCurrentTree = run;
    return run;
  }

  /** Retry, skip or abort: the TTY prompt (or `ralph --gate-action` from another terminal), else --on-verify-exhausted. */
  private async answerEscalation(): Promise<GateAction> {
    const configured = this.d.settings.onExhausted;
    let action: GateAction;
    if (configured !== 'ask') action = configured;
    else if (this.d.questions.tty) {
      action = await this.askOrAwaitAnswer();
      if (this.d.interrupt.aborted) {
        // Stopped before anyone answered: the question stays open for the next run.
        this.state = { ...this.state, status: 'escalated' };
        this.d.store.save(this.state);
        return 'abort';
      }
    } else {
      action = this.d.store.takeAction() ?? 'abort';
      if (action === 'abort') this.notice({ code: 'gate.unattended' });
    }
    this.notice({ code: 'gate.action', action });
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
    const fromPrompt = this.d.questions.ask({
      question: 'Your choice:',
      choices: ['retry', 'skip', 'abort'] as const,
      defaultChoice: 'abort',
      timeoutMs: 24 * 3_600_000,
    });
    try {
      return await Promise.race([fromPrompt, fromFile]);
    } finally {
      stop.abort();
    }
  }

  private async rollback(loop: number, id: string, cause: RollbackFacts['cause']): Promise<boolean> {
    const result = await (this.d.checkpoints as CheckpointPort).rollback(id, `loop ${loop}`);
    if (!result.ok) {
      // Only an untouched tree still holds the attempt as it was: the user must hear which it is.
      this.notice({ code: 'rollback.failed', id, reason: result.reason, partial: result.changed === true });
      this.failedRollback =
        `the rollback to checkpoint ${id} could not finish: ${result.reason}. ` +
        (result.changed === true
          ? 'Fix the cause named above, then start ralph again: it finishes the interrupted rollback first.'
          : `Nothing was rolled back: the failed attempt is still in the work tree. Fix the cause named above, then run ralph --restore ${id} to roll it back, or start ralph again to build on it.`) +
        ' ralph --checkpoints lists the checkpoints and saved attempts';
      return false;
    }
    const reverted = result.reverted;
    if (result.restored) this.rolledBack = { loop, checkpointId: id, cause, files: reverted, attemptRef: result.attemptRef, headMoved: result.headMoved };
    this.d.emit({
      type: 'checkpoint.restored',
      iteration: loop,
      id,
      attemptRef: result.attemptRef,
      cause,
      reverted,
      restoreCommand: result.restoreCommand,
      refsMoved: result.refsMoved,
      refsLeft: result.refsLeft,
      notes: result.notes,
    });
    return result.restored;
  }
}
