import { readFileSync } from 'node:fs';

/**
 * Whether a process still runs. A zombie has ended: it only waits to be reaped,
 * and under an init that never reaps (PID 1 in some containers) it waits forever.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

/** PIDs a test started or found; `killTracked` ends whatever of them still runs (for afterEach). */
const tracked = new Set<number>();

export function track(pid: number): number {
  tracked.add(pid);
  return pid;
}

export function killTracked(): void {
  for (const pid of tracked) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  tracked.clear();
}

/** Waits until `path` holds a PID (a script writes it with `echo $$ > path`), tracks it and returns it. */
export async function pidFromFile(path: string, timeoutMs = 60_000): Promise<number> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (pid > 0) return track(pid);
    } catch {
      // Not written yet.
    }
    if (Date.now() > end) throw new Error(`no PID in ${path}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits (bounded) until none of `pids` runs; returns the ones still running. */
export async function survivors(pids: readonly number[], timeoutMs = 60_000): Promise<number[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isRunning);
    if (alive.length === 0 || Date.now() > end) return alive;
    await new Promise((r) => setTimeout(r, 25));
  }
}
