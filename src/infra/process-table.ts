import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { ProcessEntry } from '../core/process-selection.js';

/**
 * A snapshot of the machine's processes, for finding the ones a run started.
 * Linux reads /proc, which also gives each process's start time (to tell a
 * recycled PID from the original) and its environment (to find the run's
 * marker in processes that were re-parented). Elsewhere `ps` gives the tree
 * and the groups only.
 */
export interface Marker {
  name: string;
  value: string;
  /** Match every value that starts with `value` (all commands of one run). */
  prefix?: boolean;
  /**
   * Start time (clock ticks since boot) of the process the marker was given to. Its
   * descendants inherit the marker and none of them started earlier, so an older process is
   * never one of them: its environment is not read (the most costly part of a table read).
   */
  notBefore?: string;
  /** Where the PIDs of the processes started since the marker was given begin (see pidWindowFrom). */
  pidWindow?: PidWindow;
}

/**
 * Linux hands out PIDs in turn, wrapping at pid_max: every process started
 * after `first` has a PID between it and the last PID given out, unless the
 * numbers went all the way round meanwhile (told by the machine's fork count,
 * which only ever grows). Only those PIDs can belong to a command, so a sweep
 * after it reads the stat file of a few processes rather than every one.
 */
export interface PidWindow {
  first: number;
  /** Processes forked on the machine since boot, read when `first` was started. */
  forks: number;
}

function readNumberAfter(file: string, pattern: RegExp): number | undefined {
  try {
    const match = pattern.exec(readFileSync(file, 'latin1'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

const forkCount = (): number | undefined => readNumberAfter('/proc/stat', /^processes (\d+)$/m);
const lastPid = (): number | undefined => readNumberAfter('/proc/loadavg', / (\d+)\s*$/);
// Cache: the kernel's pid_max, fixed while the machine runs; read once.
let pidMax: number | undefined;

/** The window for a process just started as `pid`, or undefined where the PIDs in /proc are not this process's own (another PID namespace) or cannot be read. */
export function pidWindowFrom(pid: number): PidWindow | undefined {
  let self: string;
  try {
    self = readlinkSync('/proc/self');
  } catch {
    return undefined;
  }
  const forks = forkCount();
  return self === String(process.pid) && forks !== undefined ? { first: pid, forks } : undefined;
}

/** Which PIDs may be in the window now; undefined when every process must be looked at. */
function pidFilter(window: PidWindow | undefined): ((pid: number) => boolean) | undefined {
  if (!window) return undefined;
  pidMax ??= readNumberAfter('/proc/sys/kernel/pid_max', /(\d+)/) ?? 0;
  // Read before the directory is listed: a process started after this has a newer PID and a parent in the window, if it is one of ours.
  const last = lastPid();
  const forks = forkCount();
  if (last === undefined || forks === undefined || pidMax === 0 || forks - window.forks >= pidMax / 2) return undefined;
  const { first } = window;
  return first <= last ? (pid) => pid >= first && pid <= last : (pid) => pid >= first || pid <= last;
}

interface StatFields {
  ppid: number;
  pgid: number;
  startTime: string;
  command: string;
  zombie: boolean;
}

/** Parses /proc/<pid>/stat: "pid (comm) state ppid pgrp session … starttime(22nd field) …". */
export function parseProcStat(stat: string): StatFields | undefined {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const fields = stat.slice(close + 2).split(' ');
  const startTime = fields[19];
  if (fields.length < 20 || startTime === undefined) return undefined;
  return { ppid: Number(fields[1]), pgid: Number(fields[2]), startTime, command: stat.slice(open + 1, close), zombie: fields[0] === 'Z' || fields[0] === 'X' };
}

/** A process's start time (clock ticks since boot), or undefined when it no longer runs or there is no /proc. */
export function processStartTime(pid: number): string | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.startTime;
  } catch {
    return undefined;
  }
}

function carriesMarker(pid: string, needle: Buffer): boolean {
  let environ: Buffer;
  try {
    environ = readFileSync(`/proc/${pid}/environ`);
  } catch {
    // Another user's process, or gone: never ours.
    return false;
  }
  const at = environ.indexOf(needle);
  return at === 0 || (at > 0 && environ.indexOf(Buffer.concat([Buffer.from([0]), needle])) >= 0);
}

function readProc(marker: Marker | undefined): ProcessEntry[] | undefined {
  const inWindow = pidFilter(marker?.pidWindow);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  if (!entries.includes('self')) return undefined;
  // An exact value ends with the NUL that ends the entry, so a longer value never matches.
  const needle = marker ? Buffer.from(`${marker.name}=${marker.value}${marker.prefix ? '' : '\0'}`) : undefined;
  const notBefore = marker?.notBefore === undefined ? undefined : Number(marker.notBefore);
  const couldCarry = (fields: StatFields): boolean => !fields.zombie && (notBefore === undefined || Number(fields.startTime) >= notBefore);
  const table: ProcessEntry[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    if (inWindow && !inWindow(Number(entry))) continue;
    let fields: StatFields | undefined;
    try {
      fields = parseProcStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
    } catch {
      continue;
    }
    if (!fields) continue;
    table.push({ pid: Number(entry), ...fields, marked: needle !== undefined && couldCarry(fields) && carriesMarker(entry, needle) });
  }
  return table;
}

function readPs(): ProcessEntry[] {
  let out: string;
  try {
    out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=,comm='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return [];
  }
  const table: ProcessEntry[] = [];
  for (const line of out.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, pid, ppid, pgid, state, command] = match as unknown as [string, string, string, string, string, string];
    table.push({
      pid: Number(pid),
      ppid: Number(ppid),
      pgid: Number(pgid),
      startTime: '',
      command: command.split('/').pop() ?? command,
      zombie: state.startsWith('Z'),
      marked: false,
    });
  }
  return table;
}

/** Every process on the machine; `marked` says which carry the marker (always false without /proc). */
export function readProcessTable(marker?: Marker): ProcessEntry[] {
  return readProc(marker) ?? readPs();
}
