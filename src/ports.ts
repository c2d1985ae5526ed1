/**
 * The effects the engine needs, as interfaces. Real implementations live in
 * src/infra and src/state; tests pass fakes. Nothing in src/core or src/engine
 * touches the clock, the file system or child processes except through these.
 */
import type { AgentOutput } from './core/agent-output.js';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with an AbortError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
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

/** What the loop asks a backend to do once per iteration. */
export interface AgentRequest {
  loop: number;
  cwd: string;
  /** Contents of PROMPT.md (or the task text in task mode). */
  prompt: string;
  /** Text for --append-system-prompt. */
  loopContext: string;
  /** Claude session to resume, if any. */
  resumeSessionId?: string;
  timeoutMs: number;
  /** Where the raw output of this call is written as it arrives. */
  outputLogPath: string;
  /** Stream the output (stream-json) and report events as they arrive. */
  live: boolean;
  /** Called with each complete top-level JSON value as it is parsed (live mode, progress). */
  onEvent?: (event: unknown) => void;
  /** Called with raw output text as it arrives (for live.log and progress). */
  onOutput?: (text: string) => void;
}

export type AgentEnd = 'exited' | 'timeout' | 'interrupted' | 'spawn_failed';

export interface AgentRun {
  end: AgentEnd;
  exitCode: number | undefined;
  /** The signal that ended the process, if one did. */
  signal?: string;
  durationMs: number;
  /** Parsed digest of the agent's stdout. */
  output: AgentOutput;
  /** Last part of stderr (bounded). */
  stderrTail: string;
  /** Set when the agent could not be started or its script is broken. */
  failure?: string;
  /** Retrying cannot help (the command is missing, mock responses ran out): stop the loop. */
  fatal?: boolean;
  /** Backend-specific facts worth recording (mock response index, argv, …). */
  details?: Record<string, unknown>;
}

export interface AgentBackend {
  readonly name: string;
  run(request: AgentRequest, signal: AbortSignal): Promise<AgentRun>;
  /** What run() would do, in one line (for --dry-run and logs). */
  describe(request: AgentRequest): string;
}

export type NotifyEvent = 'completed' | 'circuit_open' | 'usage_limit' | 'verify_escalation' | 'error';

/**
 * Desktop notifications for the events that matter (never one per iteration). notify() never
 * rejects (a failed notification is swallowed), so the loop may call it without awaiting.
 */
export interface Notifier {
  notify(event: NotifyEvent, message: string): void | Promise<void>;
}
