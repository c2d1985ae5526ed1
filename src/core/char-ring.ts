/**
 * The last `size` characters of a text written in pieces, copied into one fixed array of UTF-16
 * code units that is allocated once and reused.
 *
 * Keeping a long text's tail as the strings written costs more than their size: every piece
 * lives until newer ones cover the tail, so each young-generation collection of the engine
 * copies the whole tail again, and the engine answers that survival by growing the young
 * generation (to 32 MB on a 50 MB answer). The units of a typed array live outside the
 * collected heap and are never copied.
 */
export class CharRing {
  private readonly units: Uint16Array;
  /** Where the next unit goes. */
  private next = 0;
  private held = 0;

  constructor(readonly size: number) {
    this.units = new Uint16Array(size);
  }

  /** Characters held: the last `size` written, or all of them if fewer. */
  get length(): number {
    return this.held;
  }

  write(text: string): void {
    const size = this.size;
    if (size === 0 || text.length === 0) return;
    const units = this.units;
    let at = this.next;
    for (let i = Math.max(0, text.length - size); i < text.length; i += 1) {
      units[at] = text.charCodeAt(i);
      at = at + 1 === size ? 0 : at + 1;
    }
    this.next = at;
    this.held = Math.min(size, this.held + text.length);
  }

  /** The characters held, oldest first. */
  text(): string {
    if (this.held === 0) return '';
    const start = (this.next - this.held + this.size) % this.size;
    if (start + this.held <= this.size) return decode(this.units.subarray(start, start + this.held));
    return decode(this.units.subarray(start)) + decode(this.units.subarray(0, this.next));
  }
}

/** Code units per String.fromCharCode call: far below any engine's limit on arguments. */
const DECODE_BLOCK = 8192;

function decode(units: Uint16Array): string {
  const parts: string[] = [];
  for (let i = 0; i < units.length; i += DECODE_BLOCK) parts.push(String.fromCharCode(...units.subarray(i, i + DECODE_BLOCK)));
  return parts.join('');
}
