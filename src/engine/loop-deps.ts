import type { RalphConfig } from '../config/keys.js';
import type { StatusReview, StatusTotals } from '../core/status-model.js';
import type { AgentBackend } from '../ports.js';
import type { EngineIo, LoopStorePort, ProgressProbe, Randomness, ReviewPort } from './ports.js';
import type { VerifyGate } from './verify-gate.js';

export interface LoopDeps extends EngineIo {
  backend: AgentBackend;
  store: LoopStorePort;
  probe: ProgressProbe;
  /** The usage-limit jitter. */
  random: Randomness;
  /** The verify gate, when a verify command is configured. */
  gate?: VerifyGate;
  /** The reviewer pass, with --review. */
  review?: ReviewPort;
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
  /** A run a crash cut short, continued: its loop number and what it had spent (from its receipts). */
  resume?: { loop: number; totals: Readonly<StatusTotals>; review?: Readonly<StatusReview> };
}
