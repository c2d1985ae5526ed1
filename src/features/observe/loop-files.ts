import { statSync } from 'node:fs';
import { parseStoredAgentSession } from '../../core/agent-session-expiry.js';
import type { Receipt } from '../../core/receipt.js';
import type { StatusDocument } from '../../core/status-model.js';
import { OddFileError, oddFileReason, readRegularFile, readRegularTail, unreadableReason } from '../../state/regular-file.js';
import { readDocument, type DocumentSpec, type JsonRead } from '../../state/document-store.js';
import { CIRCUIT_HISTORY, CIRCUIT_STATE } from '../../state/documents/circuit.js';
import { PROGRESS } from '../../state/documents/progress.js';
import { QUEUE } from '../../state/documents/queue.js';
import { STATUS } from '../../state/documents/status.js';
import { VERIFY_GATE } from '../../state/documents/verify-gate.js';
import { ralphPaths, type RalphPaths } from '../../state/paths.js';
import { readPendingStop } from '../../state/stop-request.js';
import { parseReceipts, readReceipts, type ReceiptsRead } from '../../state/receipt-log.js';
import { isFinished } from '../../ui/monitor-sections.js';
import type { MonitorSnapshot, StatusRead } from '../../state/monitor-snapshot.js';
import type { RunningLoopView } from '../../core/queue/running-loop-view.js';
import { readRunningLoops } from '../queue/running-loops.js';
import type { QueueOutcomeView } from './dashboard/dashboard-view.js';
import type { LoopFiles } from './dashboard/loop-view.js';
import { parseEventRecords, type EventLogRead } from './event-log-inspect.js';
import { readLastLines } from './monitor/read-log-tail.js';
import { parseMetrics, type ParsedMetrics } from './stats.js';

/**
 * The one reader of a loop's `.ralph/` files for everything that observes a
 * loop: the monitor's snapshot, the dashboard's loop view, ralph-stats'
 * metrics and --inspect's session recording. Each reads for display only: a
 * missing or damaged file is a value to show, never a repair (the loop owns
 * that) and never a crash of the observer.
 */

/** How many ralph.log lines a snapshot carries (the frame shows at most this many). */
export const SNAPSHOT_LOG_LINES = 20;
/** Session recording lines read from its end: the recent iterations are in there. */
const EVENT_LINES = 400;
const EVENT_BYTES = 256 * 1024;
/** The end of receipts.jsonl the charts read (a few thousand receipts: more than the charts show). */
const RECEIPT_BYTES = 2 * 1024 * 1024;
/** metrics.jsonl is read whole up to this size (about 8,000 iterations), its end beyond. */
const METRICS_BYTES = 4 * 1024 * 1024;

/**
 * Reads a JSON file for display: like readDocument, but a file that cannot be
 * read at all (permissions, a directory) is shown as corrupt instead of
 * crashing the observer. Files are never moved aside here.
 */
function readForDisplay<T>(paths: RalphPaths, doc: DocumentSpec<T, RalphPaths>): JsonRead<T> {
  try {
    return readDocument(paths, doc);
  } catch (error) {
    return { kind: 'corrupt', reason: unreadableReason(error) };
  }
}

function readStatus(paths: RalphPaths): StatusRead {
  const read = readForDisplay(paths, STATUS);
  return read.kind === 'ok' ? { kind: 'ok', doc: read.value } : read;
}

/** The agent session id: the session file first, then what status.json knows. */
export function readSessionId(path: string, status: StatusRead): string | null {
  try {
    const id = parseStoredAgentSession(readRegularFile(path, 'utf8'))?.sessionId ?? null;
    if (id !== null) return id;
  } catch {
    // No session file yet: fall back to what status.json knows.
  }
  return status.kind === 'ok' ? status.doc.session_id : null;
}

/** Whether the loop process named in status.json still exists (signal 0 probes without touching it). */
export function isLoopAlive(doc: StatusDocument): boolean | null {
  if (doc.pid === null || doc.pid <= 0 || isFinished(doc)) return null;
  try {
    process.kill(doc.pid, 0);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return false;
    return code === 'EPERM' ? true : null;
  }
}

/** The running items of a queue run, each with its loop's progress; a damaged queue shows none. */
function readQueueLoops(paths: RalphPaths): RunningLoopView[] {
  const queue = readForDisplay(paths, QUEUE);
  return queue.kind === 'ok' ? readRunningLoops(paths.project, queue.value.items) : [];
}

/** The monitor's view of a project's .ralph/ files, consistent enough for one frame; never throws for bad files. */
export function readMonitorSnapshot(projectDir: string, now: number): MonitorSnapshot {
  const paths = ralphPaths(projectDir);
  const status = readStatus(paths);
  return {
    takenAt: new Date(now).toISOString(),
    projectDir: paths.project,
    status,
    progress: readForDisplay(paths, PROGRESS),
    circuit: readForDisplay(paths, CIRCUIT_STATE),
    sessionId: readSessionId(paths.claudeSession, status),
    logLines: readLastLines(paths.ralphLog, SNAPSHOT_LOG_LINES),
    loopAlive: status.kind === 'ok' ? isLoopAlive(status.doc) : null,
    queueLoops: readQueueLoops(paths),
    stopRequest: readPendingStop(paths) ?? null,
  };
}

/** Reads and parses a metrics file (ralph-stats); undefined when it does not exist. */
export function readMetricsFile(path: string): ParsedMetrics | undefined {
  let text: string;
  try {
    text = readRegularFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseMetrics(text);
}

/** Reads a session recording whole (--inspect, the demo); a missing or unreadable file is an error value (line 0). */
export function readEventLog(path: string): EventLogRead {
  let text: string;
  try {
    text = readRegularFile(path, 'utf8');
  } catch (e) {
    if (e instanceof OddFileError) return { records: [], error: { line: 0, message: e.message } };
    const code = (e as NodeJS.ErrnoException).code;
    const message = code === 'ENOENT' ? `session recording not found: ${path}` : `cannot read ${path} (${code ?? String(e)})`;
    return { records: [], error: { line: 0, message } };
  }
  return parseEventRecords(text);
}

/**
 * The receipts of a loop (.ralph/logs/receipts.jsonl) for --inspect, ralph-stats and the
 * dashboard: a damaged line (a torn last one after a kill) is skipped with a note, a file that
 * cannot be read is a note too; never throws.
 */
export function readReceiptLog(path: string): ReceiptsRead {
  try {
    return readReceipts(path);
  } catch (error) {
    return { receipts: [], notes: [`${path}: ${unreadableReason(error)}`] };
  }
}

/** The end of a file (at most `maxBytes`), starting at a whole line; '' when it cannot be read or is not a regular file. */
function readTailText(path: string, maxBytes: number): string {
  try {
    const { bytes, size } = readRegularTail(path, maxBytes);
    const text = bytes.toString('utf8');
    return bytes.length < size ? text.slice(text.indexOf('\n') + 1) : text;
  } catch {
    return '';
  }
}

/** A file's parse, with the size and modification time of the file it was parsed from. */
interface Stamped<T> {
  size: number;
  mtimeMs: number;
  value: T;
}

/** The parse of `path` kept in `cache` while the file keeps its size and mtime, parsed again (and kept) when either changes. */
function readStamped<T>(cache: Map<string, Stamped<T>>, path: string, parse: () => T, missing: () => T): T {
  let stamp: { size: number; mtimeMs: number };
  try {
    const stats = statSync(path);
    stamp = { size: stats.size, mtimeMs: stats.mtimeMs };
  } catch {
    cache.delete(path);
    return missing();
  }
  const cached = cache.get(path);
  if (cached !== undefined && cached.size === stamp.size && cached.mtimeMs === stamp.mtimeMs) return cached.value;
  const value = parse();
  cache.set(path, { ...stamp, value });
  return value;
}

/**
 * metrics.jsonl as last parsed, per file: the page asks every second, and a
 * long run's file only changes once per iteration.
 */
// Cache: metrics.jsonl as last parsed, per path; used only while the file keeps its size and mtime,
// so any reader may share it; replaced when either changes.
const parsedMetrics = new Map<string, Stamped<ParsedMetrics>>();

function readMetrics(path: string): ParsedMetrics {
  return readStamped(
    parsedMetrics,
    path,
    () => parseMetrics(readTailText(path, METRICS_BYTES)),
    () => parseMetrics(''),
  );
}

// Cache: the receipts as last parsed, per file; like metrics.jsonl, used only while the file keeps its size and mtime.
const parsedReceipts = new Map<string, Stamped<Receipt[]>>();

function readReceiptTail(path: string): Receipt[] {
  return readStamped(
    parsedReceipts,
    path,
    () => parseReceipts(readTailText(path, RECEIPT_BYTES)).receipts,
    () => [],
  );
}

export interface LoopLocation {
  id: string;
  title: string;
  queueState: string | null;
  /** The pull request's round and checks, when the queue follows them. */
  follow?: string;
  /** The folder holding the loop's `.ralph/`; null for a finished queue item whose worktree is gone. */
  dir: string | null;
  /** `dir` relative to the project, for display. */
  location: string;
  /** How the queue recorded the item's end (queue items only). */
  outcome: QueueOutcomeView | null;
}

/** What is shown of a loop before reading any of its files: the queue's record of it. */
function identity(loop: LoopLocation): Pick<LoopFiles, 'id' | 'title' | 'queueState' | 'location' | 'outcome' | 'follow'> {
  const { id, title, queueState, location, outcome, follow } = loop;
  return { id, title, queueState, location, outcome, ...(follow !== undefined ? { follow } : {}) };
}

/** A finished queue item whose worktree was removed: nothing to read but the queue's record. */
function recordOnly(loop: LoopLocation): LoopFiles {
  return {
    ...identity(loop),
    status: { kind: 'missing' },
    progress: { kind: 'missing' },
    circuit: { kind: 'missing' },
    circuitHistory: { kind: 'missing' },
    gate: { kind: 'missing' },
    metrics: parseMetrics(''),
    events: [],
    sessionId: null,
    alive: null,
    oddLogs: [],
  };
}

/** The logs read from their end that are something else than a regular file, named with what is there. */
function oddLogs(paths: RalphPaths): string[] {
  const logs: Array<[string, string]> = [
    ['logs/metrics.jsonl', paths.metrics],
    ['logs/session.jsonl', paths.sessionRecording],
    ['logs/receipts.jsonl', paths.receipts],
  ];
  return logs.flatMap(([name, path]) => {
    const reason = oddFileReason(path);
    return reason === null ? [] : [`${name}: ${reason}`];
  });
}

/** Reads one loop's files for the dashboard; never throws for a missing or damaged file. */
export function readLoopFiles(loop: LoopLocation): LoopFiles {
  if (loop.dir === null) return recordOnly(loop);
  const paths = ralphPaths(loop.dir);
  const status = readForDisplay(paths, STATUS);
  const statusRead: StatusRead = status.kind === 'ok' ? { kind: 'ok', doc: status.value } : status;
  const doc: StatusDocument | undefined = status.kind === 'ok' ? status.value : undefined;
  return {
    ...identity(loop),
    status,
    progress: readForDisplay(paths, PROGRESS),
    circuit: readForDisplay(paths, CIRCUIT_STATE),
    circuitHistory: readForDisplay(paths, CIRCUIT_HISTORY),
    gate: readForDisplay(paths, VERIFY_GATE),
    metrics: readMetrics(paths.metrics),
    receipts: readReceiptTail(paths.receipts),
    events: parseEventRecords(readLastLines(paths.sessionRecording, EVENT_LINES, EVENT_BYTES).join('\n')).records,
    sessionId: readSessionId(paths.claudeSession, statusRead),
    alive: doc === undefined ? null : isLoopAlive(doc),
    oddLogs: oddLogs(paths),
  };
}
