import { lstatSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive, readLockHolder } from '../../state/lock-holder.js';
import { ralphPaths } from '../../state/paths.js';

/**
 * Before an item's loop starts in a worktree an earlier run used, the loop
 * that earlier run started there must be gone. Right after a Ctrl+C (twice,
 * or a run that was killed), that loop can still be saving its state and
 * holding its worktree's lock for a few seconds; started now, the new loop
 * would find the lock taken and the item would fail for nothing. So the run
 * waits, without blocking, for the lock's holder to end — and if it does not
 * end in time, the item goes back to pending instead of failing.
 */
export type PreviousLoop = { kind: 'gone' } | { kind: 'busy'; why: string };

export interface PreviousLoopWait {
  signal: AbortSignal;
  /** Said once, when there is something to wait for. */
  onWait(why: string): void;
  timeoutMs: number;
  pollMs?: number;
}

/** Who still holds the worktree's loop lock, or undefined when nobody does (or only a dead process did). */
function lockInUse(dir: string): string | undefined {
  const paths = ralphPaths(dir);
  if (!lstatSync(paths.lockFile, { throwIfNoEntry: false })) return undefined;
  const holder = readLockHolder(paths);
  // No holder recorded: a loop between taking the lock and saying who it is, or letting it go.
  if (!holder) return 'a Ralph loop is taking or letting go of its lock';
  if (holder.host === hostname() && !isProcessAlive(holder.pid)) return undefined;
  if (holder.pid === process.pid && holder.host === hostname()) return undefined;
  return `the loop of an earlier run (process ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ''}) still holds its worktree`;
}

/**
 * After a loop that ended with exit 1: the live process (not the loop, which
 * is gone) that holds its worktree's lock, when there is one — the loop
 * stopped at once because that process held it.
 */
export function liveLockHolder(dir: string): string | undefined {
  const paths = ralphPaths(dir);
  if (!lstatSync(paths.lockFile, { throwIfNoEntry: false })) return undefined;
  const holder = readLockHolder(paths);
  if (!holder || (holder.host === hostname() && (holder.pid === process.pid || !isProcessAlive(holder.pid)))) return undefined;
  return `another Ralph loop (process ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ''}) holds its worktree`;
}

export async function waitForPreviousLoop(dir: string, wait: PreviousLoopWait): Promise<PreviousLoop> {
  let why = lockInUse(dir);
  if (why === undefined) return { kind: 'gone' };
  wait.onWait(why);
  const deadline = Date.now() + wait.timeoutMs;
  while (why !== undefined) {
    if (wait.signal.aborted || Date.now() >= deadline) return { kind: 'busy', why };
    try {
      await sleep(wait.pollMs ?? 100, undefined, { signal: wait.signal });
    } catch {
      return { kind: 'busy', why };
    }
    why = lockInUse(dir);
  }
  return { kind: 'gone' };
}
