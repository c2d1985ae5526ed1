import { isProcessAlive, readLockHolder } from './lock-holder.js';
import type { RalphPaths } from './paths.js';

/** PID of the loop running in this project, if any. */
export function runningLoopPid(paths: RalphPaths): number | undefined {
  const holder = readLockHolder(paths);
  return holder && isProcessAlive(holder.pid) ? holder.pid : undefined;
}
