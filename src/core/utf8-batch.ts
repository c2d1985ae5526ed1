/**
 * Text held for one write, kept as the UTF-8 bytes it will be written as. A stream of agent
 * output is thousands of small pieces: joining them into one string before a write copied them
 * all once more (and widened the whole batch to two bytes a character when one piece held an
 * emoji), and encoding the joined string cost more than the write. Here each piece is encoded
 * once, as it comes, straight into a buffer the size of a write.
 */
export interface Utf8BatchOptions {
  /** Bytes a buffer holds; a piece that cannot fit in an empty one is written on its own. */
  capacity: number;
  /** Receives the bytes held so far. */
  drain: (bytes: Buffer) => void;
  /**
   * The drain is done with the bytes when it returns (a synchronous write), so the buffer is
   * filled again. Otherwise each drain keeps its buffer (a stream may queue it) and a new one
   * is taken for what comes next.
   */
  reuse: boolean;
}

export class Utf8Batch {
  private buffer: Buffer | undefined;
  private used = 0;

  constructor(private readonly options: Utf8BatchOptions) {}

  /** Bytes held now. */
  get size(): number {
    return this.used;
  }

  /** Holds `text`; the bytes held before go out first when it might not fit beside them. */
  append(text: string): void {
    if (text === '') return;
    // UTF-8 takes at most three bytes for each UTF-16 unit, so this much room always suffices.
    const worst = text.length * 3;
    if (this.used > 0 && this.used + worst > this.options.capacity) this.flush();
    if (worst > this.options.capacity) {
      this.options.drain(Buffer.from(text, 'utf8'));
      return;
    }
    this.buffer ??= Buffer.allocUnsafe(this.options.capacity);
    this.used += this.buffer.write(text, this.used, 'utf8');
  }

  /** Hands the bytes held to the drain, if there are any. */
  flush(): void {
    if (this.used === 0 || this.buffer === undefined) return;
    const bytes = this.buffer.subarray(0, this.used);
    if (!this.options.reuse) this.buffer = undefined;
    this.used = 0;
    this.options.drain(bytes);
  }

  /** Drops what is held. */
  clear(): void {
    this.used = 0;
  }
}
