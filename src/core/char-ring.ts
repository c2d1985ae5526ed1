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
  /** Scratch room for the bytes of an ASCII piece, allocated on the first write. */
  private bytes: Uint8Array | undefined;

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
    const piece = text.length > size ? text.slice(-size) : text;
    if (!this.copyAscii(piece)) this.copyMixed(piece);
    this.held = Math.min(size, this.held + piece.length);
  }

  /**
   * Copies a piece that is all ASCII with the engine's own encoder and typed-array copy, many
   * times faster than a loop over its characters; answers false for any other piece.
   */
  private copyAscii(piece: string): boolean {
    this.bytes ??= new Uint8Array(this.size);
    const { read, written } = ASCII_ENCODER.encodeInto(piece, this.bytes);
    // Each ASCII character is one byte in UTF-8, and every other takes more.
    if (read !== piece.length || written !== piece.length) return false;
    const first = Math.min(piece.length, this.size - this.next);
    this.units.set(this.bytes.subarray(0, first), this.next);
    this.units.set(this.bytes.subarray(first, piece.length), 0);
    this.next = (this.next + piece.length) % this.size;
    return true;
  }

  /**
   * A piece with other characters: while they are few, its ASCII runs the fast way and the rest
   * unit by unit; where they are many, the whole rest unit by unit, cheaper than run by run.
   */
  private copyMixed(piece: string): void {
    NOT_ASCII.lastIndex = 0;
    let from = 0;
    for (let runs = 0; runs < MAX_FAST_RUNS; runs += 1) {
      const match = NOT_ASCII.exec(piece);
      if (match === null) {
        this.copyAscii(piece.slice(from));
        return;
      }
      this.copyAscii(piece.slice(from, match.index));
      this.copyUnits(match[0]);
      from = match.index + match[0].length;
    }
    this.copyUnits(piece.slice(from));
  }

  private copyUnits(piece: string): void {
    const size = this.size;
    const units = this.units;
    let at = this.next;
    for (let i = 0; i < piece.length; i += 1) {
      units[at] = piece.charCodeAt(i);
      at = at + 1 === size ? 0 : at + 1;
    }
    this.next = at;
  }

  /** The characters held, oldest first. */
  text(): string {
    if (this.held === 0) return '';
    const start = (this.next - this.held + this.size) % this.size;
    if (start + this.held <= this.size) return decode(this.units.subarray(start, start + this.held));
    return decode(this.units.subarray(start)) + decode(this.units.subarray(0, this.next));
  }
}

const ASCII_ENCODER = new TextEncoder();
// eslint-disable-next-line no-control-regex -- every character past ASCII
const NOT_ASCII = /[^\u0000-\u007f]+/g;
/** Runs of other characters a piece may have and still be copied run by run. */
const MAX_FAST_RUNS = 16;

/** Code units per String.fromCharCode call: far below any engine's limit on arguments. */
const DECODE_BLOCK = 8192;

function decode(units: Uint16Array): string {
  const parts: string[] = [];
  for (let i = 0; i < units.length; i += DECODE_BLOCK) parts.push(String.fromCharCode(...units.subarray(i, i + DECODE_BLOCK)));
  return parts.join('');
}
