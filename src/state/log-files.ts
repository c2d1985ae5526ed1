import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileTimestamp } from '../core/time-format.js';

export const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
export const LOG_ROTATE_KEEP = 4;
export const OUTPUT_LOGS_KEEP = 50;
/** The logs directory as a whole; per-call output logs go first when it is over. */
export const LOGS_DIR_MAX_BYTES = 200 * 1024 * 1024;

/** ralph.log → ralph.log.1 … .4 once it reaches 10 MB. */
export function rotateLogIfNeeded(path: string, maxBytes = LOG_ROTATE_BYTES, keep = LOG_ROTATE_KEEP): boolean {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return false;
  }
  if (size < maxBytes) return false;
  rmSync(`${path}.${keep}`, { force: true });
  for (let i = keep - 1; i >= 1; i -= 1) {
    if (existsSync(`${path}.${i}`)) renameSync(`${path}.${i}`, `${path}.${i + 1}`);
  }
  renameSync(path, `${path}.1`);
  return true;
}

/** A fresh per-call output log name; never reuses an existing file. */
export function outputLogPath(logsDir: string, nowMs: number, loop: number): string {
  const base = `claude_output_${fileTimestamp(nowMs)}_loop${loop}`;
  let candidate = join(logsDir, `${base}.log`);
  for (let i = 2; existsSync(candidate); i += 1) candidate = join(logsDir, `${base}-${i}.log`);
  return candidate;
}

function measureSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Keeps the newest `keep` per-call output logs (and their .stderr.log
 * companions), then removes the oldest of the rest until the logs directory
 * holds at most `maxDirBytes`. The newest output log is always kept: it is the
 * one the user will look at. Other logs (ralph.log, its rotations, metrics,
 * the session recording) are never removed here. Returns how many output logs
 * were removed.
 */
export function pruneOutputLogs(logsDir: string, keep = OUTPUT_LOGS_KEEP, maxDirBytes = LOGS_DIR_MAX_BYTES): number {
  let names: string[];
  try {
    names = readdirSync(logsDir);
  } catch {
    return 0;
  }
  const outputs = names.filter((n) => n.startsWith('claude_output_') && n.endsWith('.log') && !n.endsWith('.stderr.log'));
  const byAge = outputs
    .map((name) => ({ name, mtime: statSync(join(logsDir, name)).mtimeMs }))
    .sort((a, b) => a.mtime - b.mtime || a.name.localeCompare(b.name));
  const companion = (name: string): string => name.replace(/\.log$/, '.stderr.log');
  const remove = (name: string): void => {
    rmSync(join(logsDir, name), { force: true });
    rmSync(join(logsDir, companion(name)), { force: true });
  };
  const overCount = Math.max(0, byAge.length - keep);
  for (const { name } of byAge.slice(0, overCount)) remove(name);
  const left = byAge.slice(overCount);
  let total = readdirSync(logsDir).reduce((sum, name) => sum + measureSize(join(logsDir, name)), 0);
  let removed = overCount;
  for (const { name } of left.slice(0, -1)) {
    if (total <= maxDirBytes) break;
    total -= measureSize(join(logsDir, name)) + measureSize(join(logsDir, companion(name)));
    remove(name);
    removed += 1;
  }
  return removed;
}
