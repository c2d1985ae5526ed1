/**
 * What the loop needs from the world, as interfaces only. src/cli wires the real
 * implementations (src/state, src/infra, src/ui); in-process tests pass fakes. The engine
 * imports no implementation: it decides, calls these ports and emits LoopEvents.
 */
import type { GateAction, GateState } from '../core/verify-gate.js';
import type { AgentBackend, Clock } from '../ports.js';
import type { LoopEvent } from './loop-events.js';

// The ports src/state, src/infra and the checkpoints implement live one layer down, in
// src/ports.ts, so those layers name them without importing the engine.
export type { CheckpointPort, Clock, LoopStorePort, ProgressProbe } from '../ports.js';

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

/** The run's changes as the reviewer reads them. */
export interface RunDiff {
  /** The diff from the commit the loop started at to the working tree, new files included ('' when nothing changed). */
  diff: string;
  /** The commit it starts at (short), when the project is a git repository with one. */
  base?: string;
}

/**
 * The reviewer pass (--review): the reviewer's agent (a backend of its own, never resuming the
 * worker's session, every call read-only) and what it is shown.
 */
export interface ReviewPort {
  backend: AgentBackend;
  /** The diff of the whole run so far. */
  runDiff(): Promise<RunDiff>;
  /** fix_plan.md's text, when the project has one (the plan loop's "task"). */
  planText(): string | undefined;
  /** The reviewer's model, when one is configured (what --dry-run names). */
  model?: string;
  /** How the reviewer's agent makes its call read-only (its declaration's words, for --dry-run). */
  readOnlyMode?: string;
}
