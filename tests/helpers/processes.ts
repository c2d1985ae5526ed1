import { readFileSync } from 'node:fs';

/**
 * Whether a process still runs. A zombie has ended: it only waits to be reaped,
 * and under an init that never reaps (PID 1 in some containers) it waits forever.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}
