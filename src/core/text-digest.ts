import { CharRing } from './char-ring.js';
import { isErrorLine, normalizeErrorLine, ERROR_LINE_SCAN_CHARS } from './error-filter.js';

/**
 * A bounded summary of a possibly huge text: its beginning, its end, its length,
 * and the error lines found anywhere in it. Built incrementally so an agent's
 * multi-megabyte answer is never held whole in memory.
 */
export interface TextDigest {
  readonly kind: 'text-digest';
  head: string;
  tail: string;
  length: number;
  /** True when the middle of the text was dropped (head and tail do not meet). */
  truncated: boolean;
  /** Unique error lines (two-stage filter), in order of first appearance, capped. */
  errorLines: string[];
  /** Number of error lines, counting repeats. */
  errorLineCount: number;
}

export const DIGEST_HEAD_CHARS = 64 * 1024;
export const DIGEST_TAIL_CHARS = 256 * 1024;
const MAX_UNIQUE_ERROR_LINES = 50;

export function emptyDigest(): TextDigest {
  return { kind: 'text-digest', head: '', tail: '', length: 0, truncated: false, errorLines: [], errorLineCount: 0 };
}

export function isTextDigest(value: unknown): value is TextDigest {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'text-digest';
}

/** The text to analyze: all of it when it fit, else head + marker + tail. */
export function digestText(digest: TextDigest): string {
  if (!digest.truncated) return digest.head + digest.tail;
  return `${digest.head}\n[... ${digest.length - digest.head.length - digest.tail.length} characters omitted ...]\n${digest.tail}`;
}

export class TextAccumulator {
  private head = '';
  /**
   * The tail: the pieces written while they all fit in it; once the text outgrows it, a ring of
   * its last tailChars characters (char-ring.ts). Pieces are never joined as they come: each
   * join made a string of twice the tail in the engine's large-object space, which only a full
   * collection frees (tens of megabytes on a 50 MB answer).
   */
  private tailParts: string[] = [];
  private tailLength = 0;
  private ring: CharRing | undefined;
  private length = 0;
  private line = '';
  private lineOverflow = false;
  private readonly errorSet = new Set<string>();
  private errorCount = 0;
  private lastErrorLine: string | undefined;

  constructor(
    private readonly headChars = DIGEST_HEAD_CHARS,
    private readonly tailChars = DIGEST_TAIL_CHARS,
  ) {}

  /** How many characters were written. */
  get chars(): number {
    return this.length;
  }

  write(text: string): void {
    if (text.length === 0) return;
    this.length += text.length;
    let rest = text;
    if (this.head.length < this.headChars) {
      const room = this.headChars - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest.length > 0) this.appendTail(rest);
    this.scanLines(text);
  }

  private appendTail(piece: string): void {
    if (this.ring !== undefined) {
      this.ring.write(piece);
      return;
    }
    if (this.tailLength + piece.length <= this.tailChars) {
      this.tailParts.push(piece);
      this.tailLength += piece.length;
      return;
    }
    // The text outgrew the tail: from here on only its last tailChars characters are kept.
    this.ring = new CharRing(this.tailChars);
    for (const part of this.tailParts) this.ring.write(part);
    this.ring.write(piece);
    this.tailParts = [];
    this.tailLength = 0;
  }

  /** The last tailChars characters written after the head. */
  private tailText(): string {
    if (this.ring !== undefined) return this.ring.text();
    const tail = this.tailParts.join('');
    this.tailParts = tail.length > 0 ? [tail] : [];
    return tail;
  }

  private scanLines(text: string): void {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl === -1) {
        this.appendToLine(text.slice(start));
        return;
      }
      this.appendToLine(text.slice(start, nl));
      this.finishLine();
      start = nl + 1;
    }
  }

  private appendToLine(piece: string): void {
    if (this.lineOverflow || piece.length === 0) return;
    const room = ERROR_LINE_SCAN_CHARS - this.line.length;
    if (piece.length >= room) {
      this.line += piece.slice(0, room);
      this.lineOverflow = true;
    } else {
      this.line += piece;
    }
  }

  private finishLine(): void {
    if (this.line === this.lastErrorLine) {
      // A failure repeated line after line (a retry loop, a flaky test run a thousand times) is judged once.
      this.errorCount += 1;
    } else if (isErrorLine(this.line)) {
      this.errorCount += 1;
      this.lastErrorLine = this.line;
      if (this.errorSet.size < MAX_UNIQUE_ERROR_LINES) this.errorSet.add(normalizeErrorLine(this.line));
    }
    this.line = '';
    this.lineOverflow = false;
  }

  digest(): TextDigest {
    if (this.line.length > 0) this.finishLine();
    const tail = this.tailText();
    return {
      kind: 'text-digest',
      head: this.head,
      tail,
      length: this.length,
      truncated: this.length > this.head.length + tail.length,
      errorLines: [...this.errorSet],
      errorLineCount: this.errorCount,
    };
  }
}

export function digestOf(text: string): TextDigest {
  const acc = new TextAccumulator();
  acc.write(text);
  return acc.digest();
}
