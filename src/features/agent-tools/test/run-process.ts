import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { packageRoot } from '../../../infra/package-info.js';
import { start } from '../../../infra/process.js';

/**
 * Runs the real `ralph` of this package (node bin/ralph.js, the same code a
 * user runs) as the leader of its own process group, with a wall-clock limit
 * in seconds. Past the limit the whole group gets SIGTERM — Ralph stops its
 * agent, writes its last records and exits — and SIGKILL after a grace period
 * if anything is left, so the session recorded so far is kept.
 */

export interface RalphProcessOptions {
  cwd: string;
  args: readonly string[];
  env: Record<string, string>;
  timeoutMs: number;
  /** Aborting stops the run the same way as the time limit. */
  signal?: AbortSignal | undefined;
  /** Characters kept from the end of stdout and of stderr. */
  tailChars?: number;
  /** Grace between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  onOutput?(chunk: string): void;
}

export interface RalphProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  elapsedMs: number;
  stdoutTail: string;
  stderrTail: string;
  spawnError?: string;
}

export const DEFAULT_TAIL_CHARS = 4000;
const DEFAULT_KILL_GRACE_MS = 3000;

/** bin/ralph.js of this package. */
export function ralphBinPath(): string {
  return join(packageRoot(), 'bin', 'ralph.js');
}

export async function runRalphProcess(options: RalphProcessOptions): Promise<RalphProcessResult> {
  const started = performance.now();
  const outcome = await start(process.execPath, [ralphBinPath(), ...options.args], {
    cwd: options.cwd,
    env: options.env,
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    tailChars: options.tailChars ?? DEFAULT_TAIL_CHARS,
    ...(options.onOutput ? { onStderr: options.onOutput } : {}),
  });
  const result: RalphProcessResult = {
    exitCode: outcome.exitCode ?? null,
    signal: outcome.signal ?? null,
    timedOut: outcome.end === 'timeout',
    cancelled: outcome.end === 'interrupted',
    elapsedMs: performance.now() - started,
    stdoutTail: outcome.stdoutTail,
    stderrTail: outcome.stderrTail,
  };
  if (outcome.failure !== undefined) result.spawnError = outcome.failure;
  return result;
}
