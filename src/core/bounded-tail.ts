/**
 * Keeps only the last `max` characters of a stream of text, so any output size
 * costs bounded memory (verify output, agent stderr).
 */
export class BoundedTail {
  private text = '';
  private total = 0;

  constructor(private readonly max: number) {}

  write(chunk: string): void {
    this.total += chunk.length;
    if (chunk.length >= this.max) {
      // The chunk alone holds the whole tail: nothing before it needs joining (and copying).
      this.text = chunk.slice(-this.max);
      return;
    }
    // Keep up to twice the cap before trimming so trimming is rare.
    this.text += chunk;
    if (this.text.length > this.max * 2) this.text = this.text.slice(-this.max);
  }

  /** Total characters written. */
  get length(): number {
    return this.total;
  }

  get truncated(): boolean {
    return this.total > this.max;
  }

  value(): string {
    return this.text.length > this.max ? this.text.slice(-this.max) : this.text;
  }
}
