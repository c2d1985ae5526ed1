import { performance } from 'node:perf_hooks';
import { selectOwnedProcesses, type ProcessEntry, type SpawnedProcess } from '../core/process-selection.js';
import { parseProcStat, readProcessTable, type Marker } from './process-table.js';
import { readFileSync } from 'node:fs';

/**
 * Ends every process a command started, for good: SIGTERM to each, SIGKILL
 * after the grace period to whatever still runs (also those that ignore
 * SIGTERM). The table is read again on every round, so a process forked or
 * re-parented meanwhile is caught too. Only processes that carry the marker,
 * belong to a group Ralph created, were spawned by Ralph, or descend from one
 * of those are ever signalled.
 */
export interface SweepTarget {
  marker?: Marker;
  spawned?: readonly SpawnedProcess[];
  groups?: readonly number[];
  /** Never signalled (besides Ralph itself). */
  exclude?: readonly number[];
}

const POLL_MS = 25;
/**
 * A full read of the table (every process's stat and environment) costs tens
 * of milliseconds on a busy machine, so while waiting out the grace period
 * only the known processes are checked, and the whole table every few polls
 * to catch new forks.
 */
const FULL_SCAN_EVERY = 8;
/** After SIGKILL, how many rounds to keep re-reading the table for stragglers (new forks, slow exits). */
const KILL_ROUNDS = 40;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already, or not ours to signal.
  }
}

/** Whether a process seen before still runs: same PID, same start time, not a zombie. */
function stillRunning(entry: ProcessEntry): boolean {
  let stat;
  try {
    stat = parseProcStat(readFileSync(`/proc/${entry.pid}/stat`, 'utf8'));
  } catch {
    // No /proc (macOS): ask the kernel; a zombie there is reaped by its parent soon enough.
    if (entry.startTime !== '') return false;
    try {
      process.kill(entry.pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  return stat !== undefined && !stat.zombie && stat.startTime === entry.startTime;
}

/** The processes of `target` that run now. */
export function findOwnedProcesses(target: SweepTarget): ProcessEntry[] {
  return selectOwnedProcesses(readProcessTable(target.marker), {
    spawned: target.spawned ?? [],
    groups: target.groups ?? [],
    exclude: [process.pid, ...(target.exclude ?? [])],
  });
}

/** Ends every process of `target`; returns the ones it had to stop (empty when nothing ran). */
export async function stopOwnedProcesses(target: SweepTarget, graceMs: number): Promise<ProcessEntry[]> {
  const stopped = new Map<number, ProcessEntry>();
  const terminate = (entries: readonly ProcessEntry[]): void => {
    for (const entry of entries) {
      if (stopped.has(entry.pid)) continue;
      stopped.set(entry.pid, entry);
      signal(entry.pid, 'SIGTERM');
    }
  };
  let running = findOwnedProcesses(target);
  if (running.length === 0) return [];
  terminate(running);
  const deadline = performance.now() + Math.max(0, graceMs);
  for (let poll = 1; performance.now() < deadline; poll += 1) {
    await sleep(POLL_MS);
    const known = [...stopped.values()].filter(stillRunning);
    if (known.length > 0 && poll % FULL_SCAN_EVERY !== 0) continue;
    running = findOwnedProcesses(target);
    if (running.length === 0) return [...stopped.values()];
    terminate(running);
  }
  for (let round = 0; round < KILL_ROUNDS; round += 1) {
    running = findOwnedProcesses(target);
    if (running.length === 0) break;
    for (const entry of running) {
      if (!stopped.has(entry.pid)) stopped.set(entry.pid, entry);
      signal(entry.pid, 'SIGKILL');
    }
    await sleep(POLL_MS);
  }
  return [...stopped.values()];
}
