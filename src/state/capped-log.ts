import { closeSync, openSync, writeSync } from 'node:fs';
import { StreamRedactor, type Redactor } from '../core/secret-redactor.js';

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
  /** Undefined when the file could not be opened: the output is then only parsed, not kept. */
  private readonly fd: number | undefined;
  private readonly headMax: number;
  private head = 0;
  private tail: Buffer[] = [];
  private tailSize = 0;
  private cut = 0;
  private readonly redactor: StreamRedactor;
  private closed = false;

  constructor(
    readonly path: string,
    private readonly cap: LogCap = OUTPUT_LOG_CAP,
    redactor: Redactor,
  ) {
    this.fd = openQuietly(path);
    this.closed = this.fd === undefined;
    this.headMax = Math.max(0, cap.maxBytes - cap.tailBytes);
    this.redactor = new StreamRedactor(redactor);
  }

  /** Bytes cut out of the middle of the log so far. */
  get cutBytes(): number {
    return this.cut;
  }

  write(chunk: Buffer): void {
    if (this.closed) return;
    try {
      // latin1 maps each byte to one char and back, so the bytes come out unchanged.
      this.take(Buffer.from(this.redactor.write(chunk.toString('latin1')), 'latin1'));
    } catch {
      // A full disk or a vanished logs directory ends the log, never the agent call.
      this.close();
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.take(Buffer.from(this.redactor.end(), 'latin1'));
      if (this.cut > 0) this.emit(describeCut(this.cut, this.head, this.tailSize));
      for (const piece of this.tail) this.emit(piece);
    } catch {
      // As in write(): what could not be written is lost, the call goes on.
    } finally {
      if (this.fd !== undefined) closeSync(this.fd);
    }
    this.tail = [];
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
    // Copy, so the tail never pins a large read buffer of the pipe.
    this.tail.push(Buffer.from(rest));
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
