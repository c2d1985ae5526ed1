import { rmSync } from 'node:fs';
import * as v from 'valibot';
import { RUN_KIND_PATTERN } from '../core/run-kind.js';
import { readJsonFile } from './document-store.js';
import { listOf, record, text } from './documents/lenient.js';
import { writeJsonDocument } from './document-writes.js';

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
  /** The run this loop belongs to (its receipts' run_id): a crashed run is resumed by it. */
  runId?: string;
  /** What the run was (core/run-kind.ts): a crashed run is resumed only by a run of the same kind. */
  runKind?: string;
}

/** The last commands kept: older ones were ended by the loop itself when their call finished. */
const KEPT_PROCESSES = 20;

const startedProcess = record(
  {
    // PIDs 0 and 1 are never a command of ours; ending them would end far more.
    pid: v.pipe(v.number(), v.integer(), v.minValue(2)),
    start_time: text(),
    role: text('command'),
  },
  'is not an object',
);

const runFileSchema = v.pipe(
  record(
    {
      pid: v.number('is missing'),
      start_time: v.string('is missing'),
      host: text(),
      token: v.pipe(v.string('is missing'), v.regex(/^[\w.-]{8,80}$/, 'is not a run token')),
      watchdog_pid: v.fallback(v.optional(v.number()), undefined),
      processes: v.fallback(listOf(startedProcess, 'is not a list'), () => []),
      run_id: v.fallback(v.optional(v.pipe(v.string(), v.regex(/^[\w.-]{1,80}$/))), undefined),
      run_kind: v.fallback(v.optional(v.pipe(v.string(), v.regex(RUN_KIND_PATTERN))), undefined),
    },
    'not an object',
  ),
  v.transform((r): RunRecord => ({
    pid: r.pid,
    startTime: r.start_time,
    host: r.host,
    token: r.token,
    ...(r.watchdog_pid !== undefined ? { watchdogPid: r.watchdog_pid } : {}),
    processes: r.processes.map((p) => ({ pid: p.pid, startTime: p.start_time, role: p.role })),
    ...(r.run_id !== undefined ? { runId: r.run_id } : {}),
    ...(r.run_kind !== undefined ? { runKind: r.run_kind } : {}),
  })),
);

export function readRunFile(path: string): RunRecord | undefined {
  const read = readJsonFile(path, runFileSchema);
  return read.kind === 'ok' ? read.value : undefined;
}

/**
 * Written on every command the loop starts: in place while the file is still the one this
 * process wrote (document-writes.ts), so a call costs no new file and rename for it.
 */
export function writeRunFile(path: string, record: RunRecord): void {
  writeJsonDocument(path, {
    pid: record.pid,
    start_time: record.startTime,
    host: record.host,
    token: record.token,
    ...(record.watchdogPid !== undefined ? { watchdog_pid: record.watchdogPid } : {}),
    processes: record.processes.slice(-KEPT_PROCESSES).map((p) => ({ pid: p.pid, start_time: p.startTime, role: p.role })),
    ...(record.runId !== undefined ? { run_id: record.runId } : {}),
    ...(record.runKind !== undefined ? { run_kind: record.runKind } : {}),
  });
}

export function removeRunFile(path: string): void {
  rmSync(path, { force: true });
}
