import { closeSync, constants, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { openErrorOf, requireRegular } from './regular-file.js';

/**
 * The logs the loop appends to several times an iteration (ralph.log, the session recording,
 * metrics.jsonl) stay open between lines: opening and closing a file for each line cost more
 * than writing it. Every line still goes to the file in one write of its own, straight to the
 * kernel, so a process killed right after an append has lost nothing; O_APPEND keeps the lines
 * of another process appending to the same log whole.
 *
 * A log removed while open (the logs directory cleared by hand or by the agent) is noticed
 * at the next line by its link count and created again, as it would be by a fresh open. A log
 * Ralph moves aside itself (rotation) is closed first with `closeAppendFile`.
 */
// Cache: the open descriptor per log path; shared safely as each line is one O_APPEND write; closed when
// the file was removed (link count), by closeAppendFile, or when more than KEPT_OPEN are open.
const open = new Map<string, number>();
// A loop has three such logs; a process that writes to many projects (tests) closes the oldest.
const KEPT_OPEN = 8;

// O_NONBLOCK: a named pipe put in a log's place must not stop the loop (an open for writing
// waits for a reader); only a regular file is appended to (requireRegular).
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;

function openAppend(path: string): number {
  try {
    return requireRegular(openSync(path, APPEND, 0o666), path);
  } catch (error) {
    throw openErrorOf(error, path);
  }
}

function openLog(path: string): number {
  try {
    return openAppend(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true });
    return openAppend(path);
  }
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** The descriptor of `path` kept open, unless the file it names was removed meanwhile. */
function keptOpen(path: string): number | undefined {
  const fd = open.get(path);
  if (fd === undefined) return undefined;
  try {
    if (fstatSync(fd).nlink > 0) return fd;
  } catch {
    // The descriptor is no longer usable: the log is opened again.
  }
  closeAppendFile(path);
  return undefined;
}

/** Appends `text` to `path` (created with its directory if missing), keeping the file open for the next append. */
export function appendToFile(path: string, text: string): void {
  let fd = keptOpen(path);
  if (fd === undefined) {
    fd = openLog(path);
    if (open.size >= KEPT_OPEN) closeAppendFile(open.keys().next().value as string);
    open.set(path, fd);
  }
  try {
    writeAll(fd, text);
  } catch (error) {
    closeAppendFile(path);
    throw error;
  }
}

/** Closes `path` if it is kept open; the next append opens it again. */
export function closeAppendFile(path: string): void {
  const fd = open.get(path);
  if (fd === undefined) return;
  open.delete(path);
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing is lost, every line was written when appended.
  }
}
