import type { ExitReason } from '../core/exit-reasons.js';
import type { LoopEvent } from '../engine/loop-events.js';

/** A setting's value as a program gives it: what `--flag VALUE` or `.ralphrc` would say. */
export type SettingValue = string | number | boolean | readonly string[];

/** How far one run may go; each is the setting of the same name (`ralph --help` lists them). */
export interface RunLoopLimits {
  /** Stop after this many iterations (`--max-loops`, exit 7). */
  maxLoops?: number;
  /** Agent calls allowed per hour (`--calls`). */
  maxCallsPerHour?: number;
  /** Time limit of one agent call, in minutes (`--timeout`, 1-120). */
  timeoutMinutes?: number;
  /** Pause between iterations, in seconds (`--pause`, 0 allowed). */
  pauseSeconds?: number;
  /** Stop once the run cost this much (`--max-cost`). */
  maxCostUsd?: number;
  /** Stop after this many minutes (`--max-runtime`). */
  maxRuntimeMinutes?: number;
}

export interface RunLoopOptions {
  /** The project (or, with `task`, the folder) the loop works in. */
  cwd: string;
  /** Task mode, as `ralph run '<task>'` takes it (`text :: verify:"npm test" max:5 :: "criteria"`). */
  task?: string;
  /** The prompt file, relative to `cwd` (`--prompt FILE`); default `.ralph/PROMPT.md`. */
  prompt?: string;
  /** The agent: `claude`, `codex`, `gemini`, `opencode` or `mock` (`--backend`). */
  backend?: string;
  /** The verify command that must pass before the loop may end complete (`--verify`). */
  verify?: string;
  limits?: RunLoopLimits;
  /**
   * Any other setting by its field name in `ralph --config --json` (for example
   * `{ mockScript: 'script.json', checkpoint: true }`); the named options above win.
   */
  settings?: Readonly<Record<string, SettingValue>>;
  /** The environment the loop and its agent see (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Show what each iteration would run, without running the agent (`--dry-run`). */
  dryRun?: boolean;
  /** Start a new run although the last one in this folder crashed (`--fresh`); by default it is resumed with its counters. */
  fresh?: boolean;
  /** Task mode in a folder that is not a git repository (`--allow-no-git`). */
  allowNoGit?: boolean;
  /** Run although guarded settings of .ralphrc changed since the last run (`--accept-config-change`). */
  acceptConfigChange?: boolean;
  /** Aborting it stops the run like Ctrl+C: the agent and everything it started end, and the run resolves `interrupted`. */
  signal?: AbortSignal;
  /** Every event of the run, as the command's subscribers get them; secret values are redacted. */
  onEvent?: (event: LoopEvent) => void;
  /** The lines `ralph` prints on the terminal, secrets redacted; without it nothing is printed. */
  output?: (text: string) => void;
}

export interface RunLoopResult {
  /** Why the loop ended (the `exit_reason` of status.json). */
  reason: ExitReason;
  /** The exit code `ralph` would have ended with. */
  exitCode: number;
  /** Iterations run. */
  iterations: number;
  /** The reason in words. */
  message: string;
}
