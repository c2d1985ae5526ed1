import { hostname } from 'node:os';
import { readRunFile } from '../state/run-file.js';
import { runToken } from './run-marker.js';
import { stillRuns } from './run-guard.js';

/**
 * The run a loop left behind without ending it (its run file is still there and its process,
 * checked by PID and start time, is gone): undefined when the last run ended and removed the
 * file, when the file is of another machine (a PID there means nothing here) or when its loop
 * still runs. Call with the project lock held, before the run guard ends what it left running.
 */
export function findLeftBehindRun(runFile: string): { pid: number; runId: string | null; kind: string | null } | undefined {
  const previous = readRunFile(runFile);
  if (!previous || previous.token === runToken()) return undefined;
  if (previous.host !== '' && previous.host !== hostname()) return undefined;
  if (stillRuns(previous.pid, previous.startTime)) return undefined;
  return { pid: previous.pid, runId: previous.runId ?? null, kind: previous.runKind ?? null };
}
