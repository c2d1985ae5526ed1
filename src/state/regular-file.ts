import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';
import { basename } from 'node:path';
import { RalphError } from '../errors.js';

/**
 * Reading Ralph's files when anyone who can write the project (the agent
 * included) may have put something else in their place. A plain open of a
 * named pipe (FIFO) waits for a writer, for ever: one such file froze every
 * reader (the dashboard server, whose event loop stopped, even after the pipe
 * was removed; ralph-monitor; the loop itself). So a file is opened without
 * blocking (O_NONBLOCK: a pipe opens at once, with nothing to read), without
 * following a symbolic link at its name (O_NOFOLLOW), and only a regular file
 * is read; anything else is refused with a message naming it.
 */

/** A file of Ralph's that is not a regular file (a pipe, a socket, a device, a directory, a link). */
export class OddFileError extends RalphError {
  /** `EISDIR` for a directory, `ELOOP` for a link, `ENOTREG` for the rest. */
  readonly code: string;

  constructor(
    readonly path: string,
    /** What is there instead, without the file's name: "is a named pipe (FIFO), not a regular file". */
    readonly reason: string,
    code: string,
  ) {
    super(`${path} ${reason}.`, 1, `Ralph reads and writes only regular files there. Remove ${basename(path)}; Ralph writes it again when it needs it.`);
    this.name = 'OddFileError';
    this.code = code;
  }
}

function kindOf(st: Stats): { what: string; code: string } {
  if (st.isDirectory()) return { what: 'a directory', code: 'EISDIR' };
  if (st.isFIFO()) return { what: 'a named pipe (FIFO)', code: 'ENOTREG' };
  if (st.isSocket()) return { what: 'a socket', code: 'ENOTREG' };
  if (st.isCharacterDevice() || st.isBlockDevice()) return { what: 'a device', code: 'ENOTREG' };
  return { what: 'not a file Ralph can read', code: 'ENOTREG' };
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Opens `path` for reading when it is a regular file; never blocks and never
 * follows a link at its name. Errors of the open itself (ENOENT, EACCES) are
 * thrown as they are; anything but a regular file throws OddFileError.
 */
export function openRegularFile(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    throw openErrorOf(error, path);
  }
  return requireRegular(fd, path);
}

/**
 * `fd` when it is a regular file; else closes it and throws OddFileError. For
 * a writer that opened `path` with O_NONBLOCK (a named pipe with nobody
 * reading then fails with ENXIO instead of waiting for ever; see
 * openErrorOf for that error).
 */
export function requireRegular(fd: number, path: string): number {
  let st: Stats;
  try {
    st = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (!st.isFile()) {
    closeSync(fd);
    const kind = kindOf(st);
    throw new OddFileError(path, `is ${kind.what}, not a regular file`, kind.code);
  }
  return fd;
}

/** The error to throw for a failed non-blocking open of `path`: OddFileError for a link (ELOOP) or a pipe or socket (ENXIO). */
export function openErrorOf(error: unknown, path: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  // O_NOFOLLOW refuses a link at the name with ELOOP.
  if (code === 'ELOOP') return new OddFileError(path, 'is a symbolic link, not a regular file', 'ELOOP');
  // A socket cannot be opened at all; a pipe opened for writing with nobody reading neither.
  if (code === 'ENXIO') return new OddFileError(path, 'is a named pipe (FIFO) or a socket, not a regular file', 'ENOTREG');
  return error;
}

/** The whole content of a regular file (openRegularFile's rules). */
export function readRegularFile(path: string): Buffer;
export function readRegularFile(path: string, encoding: BufferEncoding): string;
export function readRegularFile(path: string, encoding?: BufferEncoding): Buffer | string {
  const fd = openRegularFile(path);
  try {
    return encoding === undefined ? readFileSync(fd) : readFileSync(fd, encoding);
  } finally {
    closeSync(fd);
  }
}

/** At most the last `maxBytes` of a regular file, and its size. */
export function readRegularTail(path: string, maxBytes: number): { bytes: Buffer; size: number } {
  const fd = openRegularFile(path);
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, maxBytes);
    const bytes = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, bytes, done, length - done, size - length + done);
      if (n === 0) break;
      done += n;
    }
    return { bytes: bytes.subarray(0, done), size };
  } finally {
    closeSync(fd);
  }
}

/**
 * What is wrong with `path` when something other than a regular file is there
 * ("it is a named pipe (FIFO), not a regular file; remove it"); null when it is
 * a regular file or nothing. For the readers that skip such a file silently
 * (a log read from its end) and still want to say so.
 */
export function oddFileReason(path: string): string | null {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch {
    return null;
  }
  if (st.isFile()) return null;
  const what = st.isSymbolicLink() ? 'a symbolic link' : kindOf(st).what;
  return `it is ${what}, not a regular file; remove it`;
}

/** Why a file could not be read at all, for a reader that shows it instead of stopping (the monitor, the dashboard). */
export function unreadableReason(error: unknown): string {
  if (error instanceof OddFileError) return `it ${error.reason}; remove it`;
  return `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
}
