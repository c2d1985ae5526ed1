import type { RalphConfig } from '../config/keys.js';
import type { ProgressProbe } from '../infra/progress-probe.js';
import type { AgentBackend, Clock, Logger, Notifier } from '../ports.js';
import type { LoopStore } from '../state/loop-store.js';
import type { SessionRecorder } from '../state/session-recorder.js';
import type { CallProgress } from '../ui/call-progress.js';
import type { VerifyGate } from './verify-gate.js';

/** The terminal, as the loop sees it. */
export interface LoopUi {
  /** A human is at a terminal: prompts and spinners are allowed. */
  tty: boolean;
  write(text: string): void;
  ask<T extends string>(question: string, choices: readonly T[], defaultChoice: T, timeoutMs: number): Promise<T>;
  /** Test seam: caps every wait (RALPH_TEST_MAX_WAIT_MS). */
  maxWaitMs?: number;
}

/** Turns stream events into display text for --live and live.log. */
export interface LiveView {
  push(event: unknown): string;
}

export interface LoopDeps {
  clock: Clock;
  backend: AgentBackend;
  logger: Logger;
  store: LoopStore;
  probe: ProgressProbe;
  recorder: SessionRecorder;
  notifier: Notifier;
  ui: LoopUi;
  /** Aborted on Ctrl+C / SIGTERM; `reason` is the signal name. */
  interrupt: AbortSignal;
  createLiveView(): LiveView;
  /** Sign of life during an agent call whose output is not streamed (no --live). */
  createCallProgress?(startedAt: number): CallProgress;
  /** The verify gate, when a verify command is configured. */
  gate?: VerifyGate;
  /** IANA zone used to read reset times that name none. */
  timeZone: string;
}

export interface TaskMode {
  /** The task text (before the first `::`). */
  text: string;
  /** Quality criteria passed to the agent as requirements. */
  criteria: string[];
  /** Without loop:true a task with a verify gate gets one attempt. */
  singleShot: boolean;
}

export interface LoopOptions {
  config: RalphConfig;
  /** The prompt file (PROMPT.md, or --prompt FILE). */
  promptPath: string;
  readPrompt(): string;
  task?: TaskMode;
  dryRun: boolean;
  pid: number;
  /** Test seam (RALPH_TEST_AGENT_TIMEOUT_MS): overrides the per-call timeout. */
  agentTimeoutMs?: number;
}
