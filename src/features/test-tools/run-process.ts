import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { packageRoot } from '../../infra/package-info.js';
import { BoundedTail } from '../../core/bounded-tail.js';
import { spawnGroup } from '../../infra/process-group.js';

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
  const tail = options.tailChars ?? DEFAULT_TAIL_CHARS;
  const stdout = new BoundedTail(tail);
  const stderr = new BoundedTail(tail);
  const group = spawnGroup(process.execPath, [ralphBinPath(), ...options.args], { cwd: options.cwd, env: options.env });
  let spawnError: string | undefined;
  group.child.once('error', (error) => {
    spawnError = error.message;
  });
  group.child.stdout?.setEncoding('utf8');
  group.child.stderr?.setEncoding('utf8');
  group.child.stdout?.on('data', (chunk: string) => stdout.write(chunk));
  group.child.stderr?.on('data', (chunk: string) => {
    stderr.write(chunk);
    options.onOutput?.(chunk);
  });

  const closed = new Promise<void>((resolve) => group.child.once('close', () => resolve()));
  let timedOut = false;
  let cancelled = false;
  const grace = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const timer = setTimeout(() => {
    timedOut = true;
    void group.terminate(grace);
  }, Math.max(1, options.timeoutMs));
  const onAbort = (): void => {
    cancelled = true;
    void group.terminate(grace);
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const exit = await group.exited;
  clearTimeout(timer);
  // 'exit' can come before the last output is read; 'close' comes after it.
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  options.signal?.removeEventListener('abort', onAbort);
  // Ralph's own children are in its group; make sure none outlives the run.
  await group.terminate(grace);
  const result: RalphProcessResult = {
    exitCode: exit.exitCode ?? null,
    signal: exit.signal ?? null,
    timedOut,
    cancelled: cancelled && !timedOut,
    elapsedMs: performance.now() - started,
    stdoutTail: stdout.value(),
    stderrTail: stderr.value(),
  };
  if (spawnError !== undefined) result.spawnError = spawnError;
  return result;
}
