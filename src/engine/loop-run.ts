import type { PermissionDenial } from '../agent-result.js';
import type { CircuitLimits } from '../core/circuit-breaker.js';
import { emptyExitSignals } from '../core/exit-signals.js';
import type { ExitReason } from '../core/exit-reasons.js';
import type { RalphConfig } from '../config/keys.js';
import type { LoopEvent, NoticeBody } from './loop-events.js';
import type { LoopDeps, LoopOptions } from './loop-deps.js';
import { newRunState, type RunState } from './run-state.js';
import { snapshotRun } from './run-snapshot.js';

/** A step's verdict: stop for this reason, or go on (undefined). */
export type Step = { stop: ExitReason; message?: string } | undefined;

export function circuitLimits(c: RalphConfig): CircuitLimits {
  return {
    noProgress: c.cbNoProgressThreshold,
    sameError: c.cbSameErrorThreshold,
    permissionDenials: c.cbPermissionDenialThreshold,
    failures: c.cbFailureThreshold,
    halfOpenAfter: Math.min(2, c.cbNoProgressThreshold),
    cooldownMinutes: c.cbCooldownMinutes,
    autoReset: c.cbAutoReset,
  };
}

/** One run of the loop: its dependencies, options and in-memory state, and the events it emits. */
export class LoopRun {
  readonly state: RunState;
  readonly limits: CircuitLimits;
  /** The latest call's denials, for the permission-denied halt. */
  lastDenials: readonly PermissionDenial[] = [];
  /** A dry run has described the reviewer's call: it says so once, not at every iteration. */
  reviewDescribed = false;

  constructor(
    readonly deps: LoopDeps,
    readonly options: LoopOptions,
  ) {
    this.limits = circuitLimits(options.config);
    const now = deps.clock.now();
    this.state = newRunState(now, deps.store.loadCircuit(now), emptyExitSignals(), deps.store.loadRate());
    // A resumed run counts on from where the crash left it: --max-loops and --max-cost see what was spent.
    if (options.resume) {
      this.state.loop = options.resume.loop;
      this.state.totals = { ...options.resume.totals };
    }
  }

  get now(): number {
    return this.deps.clock.now();
  }

  get config(): RalphConfig {
    return this.options.config;
  }

  emit(event: LoopEvent): void {
    this.deps.emit(event);
  }

  notice(notice: NoticeBody): void {
    this.deps.emit({ type: 'notice', ...notice });
  }

  /** The run state changed in a way watchers of status.json should see. */
  publish(): void {
    this.deps.emit({ type: 'status', run: snapshotRun(this.state) });
  }

  setAction(lastAction: string, status: string, message = ''): void {
    this.state.lastAction = lastAction;
    this.state.status = status;
    this.state.message = message;
    this.publish();
  }
}
