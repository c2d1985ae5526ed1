import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileTimestamp } from '../core/time-format.js';
import { closeAppendFile } from './append-files.js';

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
  // A descriptor kept open would go on appending to the log moved aside.
  closeAppendFile(path);
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

/** What a stat says of a log file, as pruning needs it. */
export interface LogFileFacts {
  mtimeMs: number;
  size: number;
}

/** A per-call output log or its .stderr.log companion: written once, by the call it belongs to. */
function isOutputLog(name: string): boolean {
  return name.startsWith('claude_output_') && name.endsWith('.log');
}

function statFacts(path: string): LogFileFacts | undefined {
  try {
    const st = statSync(path);
    return { mtimeMs: st.mtimeMs, size: st.size };
  } catch {
    return undefined;
  }
}

/**
 * Keeps the newest `keep` per-call output logs (and their companions: .stderr.log, a backend's
 * .policy.toml), then removes the oldest of the rest until the logs directory
 * holds at most `maxDirBytes`. The newest output log is always kept: it is the
 * one the user will look at. Other logs (ralph.log, its rotations, metrics,
 * the session recording) are never removed here. Returns how many output logs
 * were removed.
 *
 * The loop prunes after every call, with up to `keep` logs in the directory: `known` (kept
 * by the caller between prunes) holds what a stat said of each output log, since a log
 * does not change after its call; only new output logs and the growing logs are stat'ed again.
 */
export function pruneOutputLogs(
  logsDir: string,
  keep = OUTPUT_LOGS_KEEP,
  maxDirBytes = LOGS_DIR_MAX_BYTES,
  known: Map<string, LogFileFacts> = new Map(),
): number {
  let names: string[];
  try {
    names = readdirSync(logsDir);
  } catch {
    return 0;
  }
  const facts = new Map<string, LogFileFacts>();
  for (const name of names) {
    const f = (isOutputLog(name) ? known.get(name) : undefined) ?? statFacts(join(logsDir, name));
    if (f) facts.set(name, f);
  }
  known.clear();
  for (const [name, f] of facts) if (isOutputLog(name)) known.set(name, f);

  const byAge = [...facts]
    .filter(([name]) => isOutputLog(name) && !name.endsWith('.stderr.log'))
    .map(([name, f]) => ({ name, mtime: f.mtimeMs }))
    .sort((a, b) => a.mtime - b.mtime || a.name.localeCompare(b.name));
  // A call's other files share its log's name: <log>.stderr.log, and what its backend wrote beside it (<log>.policy.toml).
  const companions = (name: string): string[] => {
    const base = `${name.replace(/\.log$/, '')}.`;
    return [...facts.keys()].filter((other) => other !== name && other.startsWith(base));
  };
  let total = [...facts.values()].reduce((sum, f) => sum + f.size, 0);
  const remove = (name: string): void => {
    for (const file of [name, ...companions(name)]) {
      rmSync(join(logsDir, file), { force: true });
      total -= facts.get(file)?.size ?? 0;
      known.delete(file);
    }
  };
  const overCount = Math.max(0, byAge.length - keep);
  for (const { name } of byAge.slice(0, overCount)) remove(name);
  let removed = overCount;
  for (const { name } of byAge.slice(overCount, -1)) {
    if (total <= maxDirBytes) break;
    remove(name);
    removed += 1;
  }
  return removed;
}
