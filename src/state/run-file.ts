import { rmSync } from 'node:fs';
import { isRecord, readJsonFile, writeJsonAtomic } from './json-file.js';

/**
 * What a running loop has started (run.json in the run-time directory): the
 * loop's own PID and start time, its run token (the marker its commands
 * carry), its watchdog, and the agent and verify commands with their start
 * times. A loop that dies without cleaning up (kill -9, power loss of the
 * terminal) leaves it behind, and the next start ends what it names.
 */
export interface RunProcess {
  pid: number;
  /** Start time in clock ticks since boot ('' where unknown): a recycled PID has another. */
  startTime: string;
  role: string;
}

export interface RunRecord {
  pid: number;
  startTime: string;
  /** PIDs mean nothing on another machine (a repository on a shared disk). */
  host: string;
  token: string;
  watchdogPid?: number;
  processes: RunProcess[];
}

/** The last commands kept: older ones were ended by the loop itself when their call finished. */
const KEPT_PROCESSES = 20;

function toProcess(value: unknown): RunProcess | undefined {
  if (!isRecord(value) || typeof value['pid'] !== 'number' || !Number.isInteger(value['pid']) || value['pid'] <= 1) return undefined;
  return { pid: value['pid'], startTime: typeof value['start_time'] === 'string' ? value['start_time'] : '', role: typeof value['role'] === 'string' ? value['role'] : 'command' };
}

function normalize(value: unknown): RunRecord | string {
  if (!isRecord(value)) return 'not an object';
  const { pid, start_time: startTime, token, watchdog_pid: watchdogPid, processes } = value;
  if (typeof pid !== 'number' || typeof startTime !== 'string' || typeof token !== 'string' || !/^[\w.-]{8,80}$/.test(token)) return 'missing pid, start_time or token';
  const record: RunRecord = { pid, startTime, host: typeof value['host'] === 'string' ? value['host'] : '', token, processes: (Array.isArray(processes) ? processes : []).map(toProcess).filter((p): p is RunProcess => p !== undefined) };
  if (typeof watchdogPid === 'number') record.watchdogPid = watchdogPid;
  return record;
}

export function readRunFile(path: string): RunRecord | undefined {
  const read = readJsonFile(path, normalize);
  return read.kind === 'ok' ? read.value : undefined;
}

export function writeRunFile(path: string, record: RunRecord): void {
  writeJsonAtomic(path, {
    pid: record.pid,
    start_time: record.startTime,
    host: record.host,
    token: record.token,
    ...(record.watchdogPid !== undefined ? { watchdog_pid: record.watchdogPid } : {}),
    processes: record.processes.slice(-KEPT_PROCESSES).map((p) => ({ pid: p.pid, start_time: p.startTime, role: p.role })),
  });
}

export function removeRunFile(path: string): void {
  rmSync(path, { force: true });
}
