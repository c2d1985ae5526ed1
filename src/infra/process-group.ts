import { spawn, type ChildProcess } from 'node:child_process';
import type { ProcessEntry } from '../core/process-selection.js';
import { pidWindowFrom, processStartTime, type Marker } from './process-table.js';
import { stopOwnedProcesses, type SweepTarget } from './process-sweep.js';
import { announceSpawn, nextCommandMarker } from './run-marker.js';

/**
 * Starts a command as the leader of its own process group, carrying a marker
 * of its own in its environment, so that a timeout, an interrupt or the end of
 * the call can end it together with everything it started — grandchildren,
 * processes that moved to a session of their own, ones that ignore SIGTERM.
 */
export interface GroupProcess {
  child: ChildProcess;
  /** Resolves when the leader has exited. */
  exited: Promise<{ exitCode: number | undefined; signal: string | undefined }>;
  /**
   * Ends the command and everything it started (SIGTERM, then SIGKILL after
   * `graceMs`), waits for the leader, and returns the processes it stopped.
   * Also the way to end what the command left running after it exited.
   */
  terminate(graceMs: number): Promise<ProcessEntry[]>;
  /** What identifies the command's processes. */
  target: SweepTarget;
}

export interface GroupSpawnOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** What the command is, for the run file ("agent", "verify"). */
  role?: string;
  /** A pipe to write input into; closed from the start otherwise. */
  stdin?: 'pipe' | 'ignore';
  /** A fourth pipe (file descriptor 3) the command reports on, read by the caller. */
  reportPipe?: boolean;
}

export function spawnGroup(file: string, args: readonly string[], options: GroupSpawnOptions): GroupProcess {
  const marker: Marker = nextCommandMarker();
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: { ...options.env, [marker.name]: marker.value },
    // stdin closed unless there is input: newer CLIs wait on stdin in -p mode.
    stdio: options.reportPipe === true ? [options.stdin ?? 'ignore', 'pipe', 'pipe', 'pipe'] : [options.stdin ?? 'ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const target: SweepTarget = { marker, spawned: [], groups: [] };
  if (child.pid !== undefined) {
    const startTime = processStartTime(child.pid) ?? '';
    if (startTime !== '') {
      const pidWindow = pidWindowFrom(child.pid);
      target.marker = { ...marker, notBefore: startTime, ...(pidWindow ? { pidWindow } : {}) };
    }
    target.spawned = [{ pid: child.pid, startTime }];
    target.groups = [child.pid];
    announceSpawn({ pid: child.pid, startTime, role: options.role ?? file });
  }
  const exited = new Promise<{ exitCode: number | undefined; signal: string | undefined }>((resolve) => {
    let settled = false;
    const done = (exitCode: number | null | undefined, signal: NodeJS.Signals | null | undefined): void => {
      if (settled) return;
      settled = true;
      resolve({ exitCode: exitCode ?? undefined, signal: signal ?? undefined });
    };
    child.once('exit', (code, signal) => done(code, signal));
    child.once('error', () => done(undefined, undefined));
  });
  let terminating: Promise<ProcessEntry[]> | undefined;
  const terminate = (graceMs: number): Promise<ProcessEntry[]> => {
    terminating ??= (async () => {
      if (child.pid === undefined) return [];
      const stopped = await stopOwnedProcesses(target, graceMs);
      await exited;
      return stopped;
    })();
    return terminating;
  };
  return { child, exited, terminate, target };
}
