import { readRegularFile } from './regular-file.js';
import { isRecord } from './json-file.js';
import type { RalphPaths } from './paths.js';

/**
 * Who holds a project's loop lock (loop.pid in the run-time directory). Kept apart from the lock
 * itself so read-only commands (--status, --stop) stay light.
 */
export interface LockHolder {
  pid: number;
  startedAt: string;
  host: string;
}

export function readLockHolder(paths: RalphPaths): LockHolder | undefined {
  try {
    const value: unknown = JSON.parse(readRegularFile(paths.pidFile, 'utf8'));
    if (isRecord(value) && typeof value['pid'] === 'number') {
      return { pid: value['pid'], startedAt: String(value['started_at'] ?? ''), host: String(value['host'] ?? '') };
    }
  } catch {
    // No holder recorded, or unreadable: treated as unknown.
  }
  return undefined;
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
