import { closeSync, constants, fstatSync, openSync, readSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isObject, str } from '../claude/json-fields.js';
import { codexWindowsOf, rateLimitsOf, type CodexWindow } from './codex-windows.js';

/**
 * Codex's subscription windows as the real CLI keeps them. `codex exec --json` (0.169.0) prints
 * no rate limits on stdout: it reads the `x-codex-primary-*` / `x-codex-secondary-*` headers of
 * each answer and writes them only to the thread's session file,
 * `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`, as an `event_msg` whose
 * payload is a `token_count` with `rate_limits`. Ralph reads the last such event of the call.
 */
export type SessionWindowsReader = (threadId: string, sinceMs: number) => CodexWindow[];

/** Enough of a session file's end to hold its last token_count event (the file itself may be large). */
const TAIL_BYTES = 1 << 20;
/** A thread id as Codex makes it (a UUID): anything else is not looked for in a file name. */
const THREAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function sessionWindowsReader(codexHome: string | undefined): SessionWindowsReader {
  const found = new Map<string, string>();
  return (threadId, sinceMs) => {
    if (codexHome === undefined || !THREAD_ID.test(threadId)) return [];
    const path = found.get(threadId) ?? findSessionFile(join(codexHome, 'sessions'), threadId);
    if (path === undefined) return [];
    found.set(threadId, path);
    return windowsInSessionTail(readTail(path), sinceMs);
  };
}

/** The newest day folders first: a thread Ralph runs is almost always from today. */
function findSessionFile(root: string, threadId: string): string | undefined {
  const suffix = `-${threadId}.jsonl`;
  for (const year of folders(root)) {
    for (const month of folders(join(root, year))) {
      for (const day of folders(join(root, year, month))) {
        const dir = join(root, year, month, day);
        const name = entries(dir).find((e) => e.isFile() && e.name.startsWith('rollout-') && e.name.endsWith(suffix))?.name;
        if (name !== undefined) return join(dir, name);
      }
    }
  }
  return undefined;
}

function entries(dir: string): import('node:fs').Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Numbered folders (not symlinks), newest first. */
function folders(dir: string): string[] {
  return entries(dir)
    .filter((e) => e.isDirectory() && /^\d{1,4}$/.test(e.name))
    .map((e) => e.name)
    .sort((a, b) => Number(b) - Number(a));
}

function readTail(path: string): string {
  let fd: number | undefined;
  try {
    // The file found was a regular one; one that became a link or a pipe since is not read.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile()) return '';
    const size = stat.size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The windows of the last `token_count` event written at or after `sinceMs` (this call's; an
 * older one belongs to an earlier call of the thread). Lines that are cut or not JSON are skipped.
 */
export function windowsInSessionTail(text: string, sinceMs: number): CodexWindow[] {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (!line.includes('"rate_limits"')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(value) || str(value['type']) !== 'event_msg') continue;
    const payload = value['payload'];
    if (!isObject(payload) || str(payload['type']) !== 'token_count') continue;
    const at = Date.parse(str(value['timestamp']) ?? '');
    if (!Number.isFinite(at) || at < sinceMs) return [];
    const limits = rateLimitsOf(value);
    return limits ? codexWindowsOf(limits) : [];
  }
  return [];
}
