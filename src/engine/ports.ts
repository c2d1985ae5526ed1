/**
 * What the loop needs from the world, as interfaces only. src/cli wires the real
 * implementations (src/state, src/infra, src/ui); in-process tests pass fakes. The engine
 * imports no implementation: it decides, calls these ports and emits LoopEvents.
 */
import type { CircuitState, Transition } from '../core/circuit-breaker.js';
import type { ExitSignals } from '../core/exit-signals.js';
import type { FixPlanSummary } from '../core/fix-plan.js';
import type { RateState } from '../core/rate-limiter.js';
import type { Analysis, ProgressFacts } from '../core/response-analyzer.js';
import type { StoredAgentSession } from '../core/agent-session-expiry.js';
import type { GateAction, GateState } from '../core/verify-gate.js';
import type { Clock } from '../ports.js';
import type { LoopEvent } from './loop-events.js';

export type { Clock } from '../ports.js';

/** The loop's persistent state under .ralph/, one method per decision input or outcome. */
export interface LoopStorePort {
  readonly paths: { readonly project: string };
  loadCircuit(nowMs: number): CircuitState;
  saveCircuit(state: CircuitState): void;
  recordCircuitTransition(transition: Transition, loop: number, nowMs: number): void;
  saveExitSignals(signals: ExitSignals): void;
  /** Completion evidence of an earlier run must not end this one. */
  clearRunEvidence(): void;
  loadRate(): RateState;
  saveRate(state: RateState): void;
  /** The calls other loops sharing this hourly budget made since (ralph queue run); `current` when none share it. */
  refreshRate?(current: RateState): RateState;
  /** The identity of the call about to start, when the hourly budget is shared (undefined when it is not). */
  nextCallId?(): string | undefined;
  /**
   * Claims a place for the next call in the shared hourly budget, checked and recorded as one
   * step under its lock; false when other loops filled the window first (true when none share it).
   */
  reserveSharedCall?(nowMs: number, maxCallsPerHour: number): Promise<boolean>;
  /** Resolves once the calls saved so far count in the shared hourly budget, where other loops read them. */
  settleSharedRate?(): Promise<void>;
  saveAnalysis(analysis: Analysis, outputFile: string, nowMs: number): void;
  loadErrorHistory(): string[][];
  saveErrorHistory(history: readonly string[][]): void;
  readFixPlan(optionalSections: readonly string[]): FixPlanSummary | undefined;
  /** The agent session to resume, with the backend that made it. */
  readAgentSession(): StoredAgentSession | undefined;
  rememberAgentSession(sessionId: string, backend: string, nowMs: number): void;
  forgetAgentSession(): void;
  /** Forgets the agent session and its completion evidence, recording why. */
  resetSession(reason: string, loop: number, nowMs: number): void;
  touchRalphSession(nowMs: number): void;
  /** Files the loop cannot run without, relative to the project. */
  missingProjectFiles(taskMode: boolean, promptPath: string): string[];
  rotateLogs(): void;
  newOutputLogPath(loop: number, nowMs: number): string;
  pruneOutputLogs(): void;
  /** `ralph --stop` from another terminal. */
  stopRequested(): boolean;
  clearStopRequest(): void;
}

/**
 * Measures what changed in the project during an iteration: every file committed, staged,
 * unstaged or untracked (git), or a size/mtime scan outside git.
 */
export interface ProgressProbe {
  readonly method: 'git' | 'files';
  /** Records the starting point of an iteration (reuses the last measurement when still valid). */
  begin(): Promise<void>;
  /** Changes since begin(); the result becomes the next iteration's starting point. */
  measure(): Promise<Omit<ProgressFacts, 'tasksChecked'>>;
  /** Forget the cached baseline (after a rollback or restore changed the tree). */
  invalidate(): void;
}

/** Git checkpoints as the verify gate needs them. */
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
    | {
        ok: true;
        restored: boolean;
        attemptRef: string | null;
        reverted: readonly string[];
        restoreCommand: string | null;
        headMoved: boolean;
        /** Refs moved back, and refs left as they are (each with the command that restores it), as lines for the user. */
        refsMoved: readonly string[];
        refsLeft: readonly string[];
        /** What the user should know that the rollback does not restore. */
        notes: readonly string[];
      }
    | { ok: false; reason: string; changed?: boolean }
  >;
  prune(keep: number): Promise<void>;
  /** The attempt of checkpoint `id` ended (the agent call returned): its refs are noted, so a rollback undoes only what it did. */
  attemptEnded?(id: string): Promise<void>;
}

/** .ralph/.verify_gate and the answer `ralph --gate-action` leaves for a paused gate. */
export interface GateStorePort {
  load(): GateState | undefined;
  save(state: GateState): void;
  takeAction(): GateAction | undefined;
}

/** Uniform numbers in [0, 1): the usage-limit jitter, so tests can pin it. */
export interface Randomness {
  next(): number;
}

export interface Question<T extends string> {
  /** Said before the question, on its own lines. */
  preface?: string;
  question: string;
  choices: readonly T[];
  defaultChoice: T;
  timeoutMs: number;
}

/**
 * Asking the person at the terminal is input the loop waits for, not presentation: it stays a
 * port. Without a terminal (`tty` false) the loop never asks.
 */
export interface QuestionPort {
  readonly tty: boolean;
  ask<T extends string>(question: Question<T>): Promise<T>;
}

/** Where the loop says what happened; subscribers in src/cli present, record and notify. */
export type Emit = (event: LoopEvent) => void;

/** The clock, events and questions: what every engine part that waits or speaks needs. */
export interface EngineIo {
  clock: Clock;
  emit: Emit;
  questions: QuestionPort;
  /** Aborted on Ctrl+C / SIGTERM; `reason` is the signal name. */
  interrupt: AbortSignal;
}
