import type { PermissionDenial } from '../core/agent-output.js';
import type { CircuitLimits } from '../core/circuit-breaker.js';
import { emptyExitSignals } from '../core/exit-signals.js';
import type { ExitReason } from '../core/exit-reasons.js';
import type { RalphConfig } from '../config/keys.js';
import type { WaitEnd } from '../ui/wait-countdown.js';
import type { LoopDeps, LoopOptions } from './loop-deps.js';
import { newRunState, toStatusDocument, type RunState } from './run-state.js';

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

export function waitEnded(end: WaitEnd): Step {
  if (end === 'interrupted') return { stop: 'interrupted' };
  if (end === 'stopped') return { stop: 'stop_requested' };
  return undefined;
}

/** One run of the loop: its dependencies, options and in-memory state, and how it shows itself in status.json. */
export class LoopSession {
  readonly run: RunState;
  readonly limits: CircuitLimits;
  /** The latest call's denials, for the permission-denied screen. */
  lastDenials: readonly PermissionDenial[] = [];

  constructor(
    readonly deps: LoopDeps,
    readonly options: LoopOptions,
  ) {
    this.limits = circuitLimits(options.config);
    const now = deps.clock.now();
    this.run = newRunState(now, deps.store.loadCircuit(now), emptyExitSignals(), deps.store.loadRate());
  }

  get now(): number {
    return this.deps.clock.now();
  }

  get config(): RalphConfig {
    return this.options.config;
  }

  publish(): void {
    const { config, pid } = this.options;
    this.deps.store.writeStatus(toStatusDocument(this.run, { config, project: this.deps.store.paths.project, backend: this.deps.backend.name, pid }, this.now));
  }

  setAction(lastAction: string, status: string, message = ''): void {
    this.run.lastAction = lastAction;
    this.run.status = status;
    this.run.message = message;
    this.publish();
  }
}
