/**
 * The effects the engine needs, as interfaces: the ports layer, below src/state, src/infra,
 * the backends and the checkpoints that implement them, so they name a port without importing
 * the engine. Tests pass fakes. Nothing in src/core or src/engine
 * touches the clock, the file system or child processes except through these.
 */
import type { AgentProgress, AgentResult } from './agent-result.js';
import type { StoredAgentSession } from './core/agent-session-expiry.js';
import type { CircuitState, Transition } from './core/circuit-breaker.js';
import type { ExitSignals } from './core/exit-signals.js';
import type { FixPlanSummary } from './core/fix-plan.js';
import type { RateState } from './core/rate-limiter.js';
import type { Analysis, ProgressFacts } from './core/response-analyzer.js';
import type { Refusal } from './core/sandbox-refusals.js';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with an AbortError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `tick` with the time every `ms` until `signal` aborts: the beat of a sign of life
   * while something else is awaited. Beats never keep the process alive.
   */
  every(ms: number, signal: AbortSignal, tick: (now: number) => void): void;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  input?: string;
  signal?: AbortSignal;
}

export interface RunResult {
  /** undefined when the process was killed by a signal or could not start. */
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
  /** Set when the executable could not be started at all (ENOENT, EACCES). */
  spawnError?: string;
}

/** Runs short-lived helper commands (git). Never throws for a non-zero exit. */
export interface ProcessRunner {
  run(file: string, args: readonly string[], options: RunOptions): Promise<RunResult>;
}

export type LogLevel = 'INFO' | 'WARN' | 'ERROR' | 'SUCCESS' | 'LOOP' | 'DEBUG';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  success(message: string): void;
  loop(message: string): void;
  debug(message: string): void;
  /** Writes text for the user without a log prefix (banners, boxes). Goes to stderr. */
  print(text: string): void;
}

/** What the loop (or a one-off command like ralph-import) asks a backend to do for one call. */
export interface AgentRequest {
  loop: number;
  cwd: string;
  /** Contents of PROMPT.md (or the task text in task mode). */
  prompt: string;
  /** Ralph's loop context, added to the agent's system prompt ('' for none). */
  loopContext: string;
  /** Agent session to resume, if any. */
  resumeSessionId?: string;
  /** Tools the agent may use for this call instead of the configured ones. */
  allowedTools?: readonly string[];
  /**
   * A call that must change nothing (the reviewer): each backend runs its agent in that agent's
   * own read-only mode (its declaration's `readOnly`), whatever tools or modes are configured.
   */
  readOnly?: boolean;
  timeoutMs: number;
  /** Where the raw output of this call is written as it arrives. */
  outputLogPath: string;
  /** Stream the output and report progress as it arrives. */
  live: boolean;
  /** Called with what the agent is doing while it runs. */
  onProgress?: (event: AgentProgress) => void;
  /** Called with raw output text as it arrives. */
  onOutput?: (text: string) => void;
  /** Called after the call with each action the sandbox refused the agent (--sandbox). */
  onRefusal?: (refusal: Refusal) => void;
}

export interface AgentBackend {
  readonly name: string;
  /** How messages name the agent ("Claude Code"). */
  readonly displayName: string;
  run(request: AgentRequest, signal: AbortSignal): Promise<AgentResult>;
  /** What run() would do, in one line (for --dry-run and logs). */
  describe(request: AgentRequest): string;
  /** The output format run() would ask the agent for (for --dry-run). */
  describeOutput(request: AgentRequest): string;
}

export type NotifyEvent = 'completed' | 'circuit_open' | 'usage_limit' | 'verify_escalation' | 'error';

/**
 * Desktop notifications for the events that matter (never one per iteration). notify() never
 * rejects (a failed notification is swallowed), so the loop may call it without awaiting.
 */
export interface Notifier {
  notify(event: NotifyEvent, message: string): void | Promise<void>;
}

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
