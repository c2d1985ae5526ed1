/**
 * The effects the engine needs, as interfaces. Real implementations live in
 * src/infra and src/state; tests pass fakes. Nothing in src/core or src/engine
 * touches the clock, the file system or child processes except through these.
 */
import type { AgentProgress, AgentResult } from './agent-result.js';
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
