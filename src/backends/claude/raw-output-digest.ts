import { DIGEST_HEAD_CHARS, DIGEST_TAIL_CHARS, TextAccumulator, type TextDigest } from '../../core/text-digest.js';

/**
 * The digest of an agent's whole stdout as text (what a text answer, or output that is not
 * valid JSON, is analyzed as): the same head, tail, length and error lines as a
 * TextAccumulator's, for any number of chunks.
 *
 * Its tail is kept in one buffer reused for the whole call rather than as the chunks that
 * brought it. Held chunks outlive the garbage collector's young generation, so every chunk of
 * a long output would be moved to the old one and pile up there until a full collection:
 * tens of megabytes for a stream of fifty, though only the last quarter megabyte is ever read.
 */
export class RawOutputDigest {
  /** Head, length and error lines; its own tail is not kept. */
  private readonly text: TextAccumulator;
  private ring: Buffer | undefined;
  /** Where the next character goes, in bytes (two per UTF-16 code unit). */
  private at = 0;
  private filled = 0;
  private length = 0;

  constructor(
    private readonly headChars = DIGEST_HEAD_CHARS,
    private readonly tailChars = DIGEST_TAIL_CHARS,
  ) {
    this.text = new TextAccumulator(headChars, 0);
  }

  write(chunk: string): void {
    if (chunk.length === 0) return;
    this.text.write(chunk);
    // The first characters of the output are the head, not the tail.
    const headTaken = Math.max(0, Math.min(chunk.length, this.headChars - this.length));
    this.length += chunk.length;
    // Of a chunk longer than the tail only its end is kept.
    const rest = chunk.length - headTaken > this.tailChars ? chunk.slice(-this.tailChars) : chunk.slice(headTaken);
    if (rest.length > 0) this.keep(rest);
  }

  digest(): TextDigest {
    const digest = this.text.digest();
    const tail = this.tail();
    return { ...digest, tail, truncated: digest.length > digest.head.length + tail.length };
  }

  private keep(rest: string): void {
    const size = this.tailChars * 2;
    this.ring ??= Buffer.allocUnsafe(size);
    const bytes = rest.length * 2;
    const first = Math.min(bytes, size - this.at);
    this.ring.write(rest.slice(0, first / 2), this.at, 'utf16le');
    if (first < bytes) this.ring.write(rest.slice(first / 2), 0, 'utf16le');
    this.at = (this.at + bytes) % size;
    this.filled = Math.min(size, this.filled + bytes);
  }

  private tail(): string {
    if (this.ring === undefined) return '';
    if (this.filled < this.ring.length) return this.ring.toString('utf16le', 0, this.filled);
    return this.ring.toString('utf16le', this.at) + this.ring.toString('utf16le', 0, this.at);
  }
}
