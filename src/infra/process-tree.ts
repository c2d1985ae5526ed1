import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * Ending a process group for good: SIGTERM to every member, SIGKILL to whatever
 * still runs after the grace period. Used by the verify executor, whose command
 * runs as the leader of its own group (spawnGroup).
 */

/**
 * PIDs of a process group's members that still run, read from /proc; undefined
 * where there is no /proc. Zombies are left out: they have ended and only wait
 * for their parent — for orphans, the init process — to reap them. Under an
 * init that never reaps (PID 1 in many containers) `kill(-pgid, 0)` keeps
 * succeeding for such a group, and a plain liveness check would wait out the
 * whole kill grace on every timeout.
 */
export function liveGroupMembers(pgid: number): number[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const live: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp …" — comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') live.push(Number(entry));
  }
  return live;
}

/** Whether any member of the group still runs (a cheap signal-0 probe first; /proc only when it says yes). */
export function groupRunning(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const members = liveGroupMembers(pgid);
  return members === undefined || members.length > 0;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGTERM to the whole group, SIGKILL after `graceMs` to whatever still runs. */
export async function stopGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline && groupRunning(pgid)) await new Promise((r) => setTimeout(r, 10));
  if (groupRunning(pgid)) signalGroup(pgid, 'SIGKILL');
}
