import { rmSync } from 'node:fs';
import { hostname } from 'node:os';
import lockfile from 'proper-lockfile';
import { ExitCode, RalphError } from '../errors.js';
import { writeJsonAtomic } from './json-file.js';
import { isProcessAlive, readLockHolder } from './lock-holder.js';
import type { DocumentLock } from './document-store.js';
import type { RalphPaths } from './paths.js';
import { ensureRuntimeDir } from './runtime-dir.js';

export interface ProjectLock {
  release(): Promise<void>;
}

const STALE_MS = 15_000;

/**
 * One loop per project. The lock is proper-lockfile's mkdir lock in the
 * project's run-time directory, out of the agent's reach; the holder's PID is
 * kept beside it so a second `ralph` can say who holds it, and a lock left by a
 * dead process on this host is taken over at once instead of after the
 * staleness window.
 */
export async function acquireProjectLock(paths: RalphPaths, onCompromised: (error: Error) => void): Promise<ProjectLock> {
  ensureRuntimeDir(paths.project);
  const options = { lockfilePath: paths.lockFile, stale: STALE_MS, realpath: false, onCompromised };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(paths.lockTarget, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const holder = readLockHolder(paths);
    if (holder && holder.host === hostname() && !isProcessAlive(holder.pid)) {
      rmSync(paths.lockFile, { recursive: true, force: true });
      release = await lockfile.lock(paths.lockTarget, options);
    } else {
      const who = holder
        ? `process ${holder.pid}${holder.host && holder.host !== hostname() ? ` on ${holder.host}` : ''}, started ${holder.startedAt}`
        : 'another process';
      throw new RalphError(
        `Another Ralph loop is already running in this project (${who}).`,
        ExitCode.RuntimeError,
        `Watch it with 'ralph --status' or 'ralph-monitor', ask it to stop with 'ralph --stop', or wait for it to finish.`,
      );
    }
  }
  writeJsonAtomic(paths.pidFile, { pid: process.pid, started_at: new Date().toISOString(), host: hostname() });
  return {
    async release() {
      rmSync(paths.pidFile, { force: true });
      try {
        await release();
      } catch {
        // Already released or compromised: nothing left to undo.
      }
    },
  };
}

/**
 * The lock for a change to a loop's state made from outside the loop
 * (`--reset-circuit`, `--gate-action` with no loop running): holding the
 * project lock means no loop runs meanwhile, and none can start and write
 * the same file until the change is on disk.
 */
export function projectDocumentLock(paths: RalphPaths): DocumentLock {
  return async () => {
    const lock = await acquireProjectLock(paths, () => undefined);
    return () => lock.release();
  };
}
