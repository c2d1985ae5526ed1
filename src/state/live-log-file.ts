import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { Utf8Batch } from '../core/utf8-batch.js';
import { redactText } from './redaction.js';
import { tempNameBeside } from './temp-name.js';

/** live.log holds the current loop's stream; past this size it starts over, so a runaway agent cannot fill the disk. */
export const LIVE_LOG_MAX_BYTES = 10 * 1024 * 1024;

/** Past this much held text a write goes out at once, so the held text stays small whatever the agent prints. */
export const LIVE_LOG_FLUSH_BYTES = 64 * 1024;

/** Runs `flush` once the events at hand are handled: by default when the current pipe chunk is fully parsed. */
export type DeferFlush = (flush: () => void) => void;

const afterCurrentEvents: DeferFlush = (flush) => {
  setImmediate(flush);
};

// O_NONBLOCK: a named pipe in live.log's place fails at once instead of waiting for a reader.
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * live.log during one agent call, kept open from the loop's header to the
 * call's end. A stream brings thousands of small events a second: opening,
 * appending to and closing the file for each cost more than the rest of the
 * live view, so events are held (as the bytes they will be written as) and
 * written together once the burst that brought them is handled (or a size is
 * reached), which keeps a watcher's view as fresh as before. The file is never reached through a symbolic link
 * the agent may plant: a new file is created beside it and renamed over it,
 * and the descriptor of that very file is kept; an existing file is opened
 * with O_NOFOLLOW.
 */
export class LiveLogFile {
  private fd: number | undefined;
  private written = 0;
  private flushQueued = false;
  /** Room for a whole burst past the flush size, so a flush happens at that size and not before. */
  private readonly held: Utf8Batch;

  private constructor(
    private readonly path: string,
    private readonly maxBytes: number,
    private readonly defer: DeferFlush,
    private readonly flushBytes: number,
  ) {
    this.held = new Utf8Batch({ capacity: 4 * flushBytes, reuse: true, drain: (bytes) => this.writeOut(bytes) });
  }

  /** Replaces live.log with a file that starts with `header`. */
  static start(path: string, header: string, maxBytes: number, defer: DeferFlush = afterCurrentEvents, flushBytes = LIVE_LOG_FLUSH_BYTES): LiveLogFile {
    const file = new LiveLogFile(path, maxBytes, defer, flushBytes);
    file.replace(header);
    return file;
  }

  /** Appends to live.log as it is, without a header of its own. */
  static append(path: string, maxBytes: number, defer: DeferFlush = afterCurrentEvents, flushBytes = LIVE_LOG_FLUSH_BYTES): LiveLogFile {
    const file = new LiveLogFile(path, maxBytes, defer, flushBytes);
    file.attempt(() => {
      file.fd = openSync(path, APPEND | constants.O_CREAT, 0o666);
    });
    return file;
  }

  /** Holds `text` (already redacted) for the next flush. */
  write(text: string): void {
    if (text === '' || this.fd === undefined) return;
    // The exact size is only needed near the limit: three bytes a unit is the most it can be.
    const before = this.written + this.held.size;
    if (before + text.length * 3 > this.maxBytes && before + Buffer.byteLength(text) > this.maxBytes) {
      // Start over rather than stop: whoever follows live.log wants the latest output.
      this.restart(
        `[... earlier output of this loop cut: live.log keeps at most ${this.maxBytes} bytes; the beginning is in this call's output log under .ralph/logs ...]`,
      );
      if (this.fd === undefined) return;
    }
    this.held.append(text);
    if (this.held.size >= this.flushBytes) this.flush();
    else if (!this.flushQueued) {
      this.flushQueued = true;
      this.defer(() => {
        this.flushQueued = false;
        this.flush();
      });
    }
  }

  /** Writes what is held now. */
  flush(): void {
    this.held.flush();
  }

  private writeOut(bytes: Buffer): void {
    this.written += bytes.length;
    const fd = this.fd;
    if (fd !== undefined) this.attempt(() => writeSync(fd, bytes));
  }

  /** Writes what is held and lets the file go; later writes are dropped. */
  close(): void {
    this.flush();
    this.release();
  }

  /**
   * Starts live.log over with `firstLine`. The file held open is emptied and reused while it is
   * still the one at the path (a new file renamed over it costs the file system far more, once
   * a call); one the agent removed, replaced or linked elsewhere is left alone for a new file.
   */
  restart(firstLine: string): void {
    this.held.clear();
    const fd = this.fd;
    if (fd === undefined || !isStillAt(this.path, fd)) {
      this.replace(firstLine);
      return;
    }
    this.written = 0;
    this.attempt(() => {
      ftruncateSync(fd, 0);
      writeSync(fd, `${redactText(firstLine)}\n`);
    });
  }

  private replace(firstLine: string): void {
    this.release();
    this.written = 0;
    this.attempt(() => {
      this.fd = createBeside(this.path, `${redactText(firstLine)}\n`);
    });
  }

  private release(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    this.attempt(() => closeSync(fd));
  }

  /** The live view is best effort: a failed write ends it for this call, never the call itself. */
  private attempt(effect: () => void): void {
    try {
      effect();
    } catch {
      this.release();
    }
  }
}

/** Whether `fd` is still the regular file at `path`, under that one name only. */
function isStillAt(path: string, fd: number): boolean {
  try {
    const here = lstatSync(path, { throwIfNoEntry: false });
    const held = fstatSync(fd);
    return here !== undefined && here.isFile() && here.ino === held.ino && here.dev === held.dev && held.nlink === 1;
  } catch {
    return false;
  }
}

/**
 * Creates a new file beside `path` holding `content`, renames it over `path`
 * and returns its open descriptor: what is written later goes to that file,
 * whatever is put in its place meanwhile.
 */
function createBeside(path: string, content: string): number {
  const tmp = tempNameBeside(path);
  const create = (): number => openSync(tmp, APPEND | constants.O_CREAT | constants.O_EXCL, 0o666);
  let fd: number;
  try {
    fd = create();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') mkdirSync(dirname(path), { recursive: true });
    else if (code === 'EEXIST') rmSync(tmp, { force: true });
    else throw error;
    fd = create();
  }
  try {
    writeSync(fd, content);
    renameSync(tmp, path);
    return fd;
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
}
