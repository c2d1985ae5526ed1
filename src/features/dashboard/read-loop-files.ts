import { statSync } from 'node:fs';
import { oddFileReason, readRegularTail, unreadableReason } from '../../infra/regular-file.js';
import type { StatusDocument } from '../../core/status-model.js';
import { readDocument, type DocumentSpec, type JsonRead } from '../../state/document-store.js';
import { CIRCUIT_HISTORY, CIRCUIT_STATE } from '../../state/documents/circuit.js';
import { PROGRESS } from '../../state/documents/progress.js';
import { STATUS } from '../../state/documents/status.js';
import { VERIFY_GATE } from '../../state/documents/verify-gate.js';
import { ralphPaths, type RalphPaths } from '../../state/paths.js';
import { parseEventRecords } from '../event-log-inspect.js';
import { isLoopAlive, readSessionId } from '../monitor/read-snapshot.js';
import { readLastLines } from '../monitor/read-log-tail.js';
import { parseMetrics, type ParsedMetrics } from '../stats.js';
import type { QueueOutcomeView } from './dashboard-view.js';
import type { LoopFiles } from './loop-view.js';

/** Session recording lines read from its end: the recent iterations are in there. */
const EVENT_LINES = 400;
const EVENT_BYTES = 256 * 1024;
/** metrics.jsonl is read whole up to this size (about 8,000 iterations), its end beyond. */
const METRICS_BYTES = 4 * 1024 * 1024;

/** Like the monitor: a file that cannot be read at all is shown as corrupt, and nothing is repaired here. */
function readForDisplay<T>(paths: RalphPaths, doc: DocumentSpec<T, RalphPaths>): JsonRead<T> {
  try {
    return readDocument(paths, doc);
  } catch (error) {
    return { kind: 'corrupt', reason: unreadableReason(error) };
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

/**
 * metrics.jsonl as last parsed, per file: the page asks every second, and a
 * long run's file only changes once per iteration.
 */
const parsedMetrics = new Map<string, { size: number; mtimeMs: number; metrics: ParsedMetrics }>();

function readMetrics(path: string): ParsedMetrics {
  let stamp: { size: number; mtimeMs: number };
  try {
    const stats = statSync(path);
    stamp = { size: stats.size, mtimeMs: stats.mtimeMs };
  } catch {
    parsedMetrics.delete(path);
    return parseMetrics('');
  }
  const cached = parsedMetrics.get(path);
  if (cached !== undefined && cached.size === stamp.size && cached.mtimeMs === stamp.mtimeMs) return cached.metrics;
  const metrics = parseMetrics(readTailText(path, METRICS_BYTES));
  parsedMetrics.set(path, { ...stamp, metrics });
  return metrics;
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

/** A finished queue item whose worktree was removed: nothing to read but the queue's record. */
function recordOnly(loop: LoopLocation): LoopFiles {
  return {
    id: loop.id,
    title: loop.title,
    queueState: loop.queueState,
    ...(loop.follow !== undefined ? { follow: loop.follow } : {}),
    location: loop.location,
    outcome: loop.outcome,
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
  const statusRead = status.kind === 'ok' ? { kind: 'ok' as const, doc: status.value } : status;
  const doc: StatusDocument | undefined = status.kind === 'ok' ? status.value : undefined;
  return {
    id: loop.id,
    title: loop.title,
    queueState: loop.queueState,
    ...(loop.follow !== undefined ? { follow: loop.follow } : {}),
    location: loop.location,
    outcome: loop.outcome,
    status,
    progress: readForDisplay(paths, PROGRESS),
    circuit: readForDisplay(paths, CIRCUIT_STATE),
    circuitHistory: readForDisplay(paths, CIRCUIT_HISTORY),
    gate: readForDisplay(paths, VERIFY_GATE),
    metrics: readMetrics(paths.metrics),
    events: parseEventRecords(readLastLines(paths.sessionRecording, EVENT_LINES, EVENT_BYTES).join('\n')).records,
    sessionId: readSessionId(paths.claudeSession, statusRead),
    alive: doc === undefined ? null : isLoopAlive(doc),
    oddLogs: oddLogs(paths),
  };
}
