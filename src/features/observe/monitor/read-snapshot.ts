import { readPendingStop } from '../../../state/stop-request.js';
import type { StatusDocument } from '../../../core/status-model.js';
import { ralphPaths, type RalphPaths } from '../../../state/paths.js';
import { readDocument, type DocumentSpec, type JsonRead } from '../../../state/document-store.js';
import { CIRCUIT_STATE } from '../../../state/documents/circuit.js';
import { PROGRESS } from '../../../state/documents/progress.js';
import { STATUS } from '../../../state/documents/status.js';
import { isFinished } from '../../../ui/monitor-sections.js';
import type { MonitorSnapshot, StatusRead } from '../../../ui/render-monitor.js';
import { parseStoredAgentSession } from '../../../core/agent-session-expiry.js';
import { readLastLines } from './read-log-tail.js';
import { readRegularFile, unreadableReason } from '../../../infra/regular-file.js';
import { QUEUE } from '../../../state/documents/queue.js';
import { readRunningLoops, type RunningLoopView } from '../../queue/running-loops.js';

/** How many ralph.log lines a snapshot carries (the frame shows at most this many). */
export const SNAPSHOT_LOG_LINES = 20;

/**
 * Reads a JSON file for display: like readJsonFile, but a file that cannot be
 * read at all (permissions, a directory) is shown as corrupt instead of
 * crashing the monitor. Files are never moved aside here: the monitor only
 * reads, the loop owns the repair.
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

/** One consistent-enough view of a project's .ralph/ files; never throws for bad files. */
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
