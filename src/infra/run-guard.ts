import { hostname } from 'node:os';
import { describeProcesses } from '../core/process-selection.js';
import type { Logger } from '../ports.js';
import { isProcessAlive } from '../state/lock-holder.js';
import { readRunFile, removeRunFile, writeRunFile, type RunRecord } from '../state/run-file.js';
import { stopOwnedProcesses } from './process-sweep.js';
import { processStartTime } from './process-table.js';
import { runMarker, runToken, watchSpawns } from './run-marker.js';
import { startWatchdog } from './watchdog.js';

/**
 * Makes sure nothing a loop starts outlives it: first ends what a dead run of
 * the same project left behind (from its run file), then records this run and
 * starts its watchdog. Call with the project lock held.
 */
export interface RunGuard {
  /** The loop is over: the watchdog sweeps and exits, the run file goes. */
  stop(): void;
}

/** Grace before SIGKILL for a dead run's leftovers. */
const LEFTOVER_GRACE_MS = 2000;
/** Grace the watchdog gives the agent and verify command after Ralph died. */
const WATCHDOG_GRACE_MS = 1000;

/** Whether the process still runs: by PID and start time, so a recycled PID is not taken for it. */
export function stillRuns(pid: number, startTime: string): boolean {
  if (startTime === '') return isProcessAlive(pid);
  return processStartTime(pid) === startTime;
}

/** Ends what a run that died without cleaning up left running; says what it stopped. */
export async function endLeftovers(runFile: string, logger: Pick<Logger, 'warn'>): Promise<number> {
  const previous = readRunFile(runFile);
  if (!previous || previous.token === runToken() || (previous.host !== '' && previous.host !== hostname())) return 0;
  // A live owner is a loop that still runs (it cannot, while this process holds the lock, unless it lost it): not ours to touch.
  if (stillRuns(previous.pid, previous.startTime)) return 0;
  const stopped = await stopOwnedProcesses({ marker: runMarker(previous.token), spawned: previous.processes }, LEFTOVER_GRACE_MS);
  if (stopped.length > 0) {
    logger.warn(
      `A previous Ralph run (PID ${previous.pid}) ended without stopping what it started; stopped ${stopped.length} process${stopped.length === 1 ? '' : 'es'} it left running: ${describeProcesses(stopped)}`,
    );
  }
  removeRunFile(runFile);
  return stopped.length;
}

export async function startRunGuard(runFile: string, logger: Pick<Logger, 'warn'>, runId?: string, runKind?: string): Promise<RunGuard> {
  await endLeftovers(runFile, logger);
  const token = runToken();
  const record: RunRecord = {
    pid: process.pid,
    startTime: processStartTime(process.pid) ?? '',
    host: hostname(),
    token,
    processes: [],
    ...(runId !== undefined ? { runId } : {}),
    ...(runKind !== undefined ? { runKind } : {}),
  };
  const watchdog = startWatchdog(token, WATCHDOG_GRACE_MS);
  if (watchdog.pid !== undefined) record.watchdogPid = watchdog.pid;
  const save = (): void => {
    try {
      writeRunFile(runFile, record);
    } catch (error) {
      logger.warn(`Could not record the run's processes in ${runFile}: ${(error as Error).message}`);
    }
  };
  save();
  const unwatch = watchSpawns((spawned) => {
    watchdog.note(spawned);
    record.processes = [...record.processes, { pid: spawned.pid, startTime: spawned.startTime, role: spawned.role }].slice(-20);
    save();
  });
  return {
    stop() {
      unwatch();
      watchdog.close();
      removeRunFile(runFile);
    },
  };
}
