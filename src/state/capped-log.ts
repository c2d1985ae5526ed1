import { closeSync, openSync, writeSync } from 'node:fs';
import type { Redactor } from '../core/secret-redactor.js';

/**
 * The output log of one agent call, bounded: an agent that prints without end
 * (a runaway loop, `yes`, a log tailed forever) must not fill the user's disk.
 * The first part of the output is written as it arrives; once the log reaches
 * its size, only the most recent `tailBytes` are kept in memory, and on close
 * they follow a line that says how much was cut. Memory stays bounded by
 * `tailBytes` whatever the agent prints. Secrets are redacted on the way in.
 */
export interface LogCap {
  /** Largest size of the log, cut notice aside. */
  maxBytes: number;
  /** How much of the end is kept when output is cut. */
  tailBytes: number;
}

export const OUTPUT_LOG_CAP: LogCap = { maxBytes: 10 * 1024 * 1024, tailBytes: 1024 * 1024 };

export function describeCut(cutBytes: number, headBytes: number, tailBytes: number): string {
  return `\n[... Ralph cut ${cutBytes} bytes of output here: this log keeps the first ${headBytes} and the last ${tailBytes} bytes ...]\n`;
}

function openQuietly(path: string): number | undefined {
  try {
    return openSync(path, 'w');
  } catch {
    return undefined;
  }
}

export class CappedLog {
  /** Undefined until the log is opened, and when the file could not be: the output is then only parsed, not kept. */
  private fd: number | undefined;
  private opened = false;
  private readonly headMax: number;
  private head = 0;
  private tail: Buffer[] = [];
  private tailSize = 0;
  private cut = 0;
  /** The values redacted, as the bytes they are in the output. */
  private readonly needles: Buffer[];
  /** The last bytes written, held back until the next write shows whether a value starts in them. */
  private held = Buffer.alloc(0);
  private closed = false;

  constructor(
    readonly path: string,
    private readonly cap: LogCap = OUTPUT_LOG_CAP,
    private readonly redactor: Redactor,
  ) {
    this.headMax = Math.max(0, cap.maxBytes - cap.tailBytes);
    this.needles = redactor.forms.map((form) => Buffer.from(form, 'latin1'));
  }

  /** Bytes cut out of the middle of the log so far. */
  get cutBytes(): number {
    return this.cut;
  }

  /**
   * Creates the file, at the first output or at the close, whichever comes first. Creating a
   * file costs the file system a new inode and directory entry (0.2–0.8 ms on ext4 while the
   * loop writes its own files): made before the agent starts, that was Ralph's largest cost
   * between two calls; made at the first output, it is made while the agent works.
   */
  private open(): void {
    if (this.opened) return;
    this.opened = true;
    this.fd = openQuietly(this.path);
    if (this.fd === undefined) this.closed = true;
  }

  /** Logs `chunk`, which may be kept as it is until the log closes: it must not be changed afterwards. */
  write(chunk: Buffer): void {
    this.open();
    if (this.closed) return;
    try {
      for (const bytes of this.redactBytes(chunk)) this.take(bytes);
    } catch {
      // A full disk or a vanished logs directory ends the log, never the agent call.
      this.close();
    }
  }

  close(): void {
    this.open();
    if (this.closed) return;
    this.closed = true;
    try {
      const rest = this.held;
      this.held = Buffer.alloc(0);
      this.take(this.redactWhole(rest));
      if (this.cut > 0) this.emit(describeCut(this.cut, this.head, this.tailSize));
      for (const piece of this.tail) this.emit(piece);
    } catch {
      // As in write(): what could not be written is lost, the call goes on.
    } finally {
      if (this.fd !== undefined) closeSync(this.fd);
    }
    this.tail = [];
  }

  /**
   * The bytes that can be written now, secrets redacted: a value split between two writes is
   * still found, because the last `longest - 1` bytes wait for the next write (or the close).
   * Output rarely holds a value: then the chunk goes on as it came, without being joined to
   * what was held back (a copy of every chunk of a 50 MB answer, for nothing).
   */
  private redactBytes(chunk: Buffer): Buffer[] {
    if (this.needles.length === 0) return [chunk];
    const keep = this.redactor.longest - 1;
    const held = this.held;
    if (chunk.length > keep && !this.valueIn(chunk) && !this.valueIn(Buffer.concat([held, chunk.subarray(0, keep)]))) {
      // A copy: the few bytes held must not keep the whole chunk alive.
      this.held = Buffer.from(chunk.subarray(chunk.length - keep));
      return [held, chunk.subarray(0, chunk.length - keep)];
    }
    const bytes = this.redactWhole(held.length > 0 ? Buffer.concat([held, chunk]) : chunk);
    const kept = Math.min(bytes.length, keep);
    this.held = Buffer.from(bytes.subarray(bytes.length - kept));
    return [bytes.subarray(0, bytes.length - kept)];
  }

  private valueIn(bytes: Buffer): boolean {
    return this.needles.some((needle) => bytes.includes(needle));
  }

  /**
   * Bytes with every value redacted. Output rarely holds one, and then goes out as it came; only
   * bytes that do take the way through a string (latin1: one char per byte, and back unchanged).
   */
  private redactWhole(bytes: Buffer): Buffer {
    if (!this.valueIn(bytes)) return bytes;
    return Buffer.from(this.redactor.redact(bytes.toString('latin1')), 'latin1');
  }

  private emit(data: Buffer | string): void {
    if (this.fd === undefined) return;
    if (typeof data === 'string') writeSync(this.fd, data);
    else writeSync(this.fd, data);
  }

  private take(bytes: Buffer): void {
    let rest = bytes;
    if (this.head < this.headMax) {
      const room = Math.min(this.headMax - this.head, rest.length);
      this.emit(rest.subarray(0, room));
      this.head += room;
      rest = rest.subarray(room);
    }
    if (rest.length === 0) return;
    // A piece that is most of the memory it lives in is kept as it is (a chunk of the pipe is
    // never written again); a small piece of a larger buffer is copied, so the tail never pins it.
    this.tail.push(rest.length * 2 >= rest.buffer.byteLength ? rest : Buffer.from(rest));
    this.tailSize += rest.length;
    while (this.tailSize > this.cap.tailBytes) {
      const first = this.tail[0] as Buffer;
      const over = this.tailSize - this.cap.tailBytes;
      if (first.length <= over) {
        this.tail.shift();
        this.tailSize -= first.length;
        this.cut += first.length;
      } else {
        this.tail[0] = first.subarray(over);
        this.tailSize -= over;
        this.cut += over;
      }
    }
  }
}
