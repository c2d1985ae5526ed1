/**
 * Reads the characters of one JSON string as they arrive in chunks, for the
 * incremental parser. A string may be huge (Claude's `result` holds the agent's
 * whole answer, 50 MB and more) and full of escapes (one `\n` per line), so the
 * text between the string's opening quote and its end or the chunk's end is
 * decoded as one run by the engine's own JSON.parse: one piece per chunk
 * instead of one per escape. Small pieces that live until the digest's tail is
 * cut outlive the young generation and fill the old one; that, not what is
 * kept, was what a long answer cost in memory.
 *
 * A run that is not strict JSON (a raw control character, which is let
 * through, or a bad escape, which stops the parse) is read escape by escape
 * instead, so what is accepted and where an error is reported do not change.
 */
export interface JsonStringSink {
  append(text: string): void;
  fail(message: string, at: number): void;
  failed(): boolean;
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const LETTER_U = 0x75;
const HEX4 = /^[0-9a-fA-F]{4}$/;

export class JsonStringReader {
  /** True once the string's closing quote was read. */
  closed = false;
  private escape: 0 | 1 | 2 = 0; // none, after '\', collecting \u hex
  private hex = '';
  // Where the next quote and backslash of the current chunk are, so each is searched once per chunk.
  private nextQuote = -2;
  private nextSlash = -2;

  constructor(private readonly sink: JsonStringSink) {}

  /** A new chunk: positions found in the last one mean nothing. */
  startChunk(): void {
    this.nextQuote = -2;
    this.nextSlash = -2;
  }

  /** A new string, its opening quote just read. */
  startString(): void {
    this.closed = false;
    this.escape = 0;
    this.hex = '';
  }

  /** Reads on from `i`: an escape cut by the last chunk's end, or a run up to the closing quote or this chunk's end. Returns where it stopped. */
  read(chunk: string, i: number): number {
    if (this.escape !== 0) return this.readEscape(chunk, i);
    const n = chunk.length;
    if (this.nextQuote !== -1 && this.nextQuote < i) this.nextQuote = chunk.indexOf('"', i);
    let j = i;
    let escaped = false;
    for (;;) {
      if (this.nextSlash !== -1 && this.nextSlash < j) this.nextSlash = chunk.indexOf('\\', j);
      const slash = this.nextSlash;
      if (slash === -1 || (this.nextQuote !== -1 && slash > this.nextQuote)) break;
      const width = chunk.charCodeAt(slash + 1) === LETTER_U ? 6 : 2;
      if (slash + width > n) {
        // The chunk ends inside this escape: the run stops before it, the escape reader takes the rest.
        this.appendRun(chunk, i, slash, escaped);
        if (!this.sink.failed()) this.escape = 1;
        return slash + 1;
      }
      escaped = true;
      j = slash + width;
      if (this.nextQuote !== -1 && this.nextQuote < j) this.nextQuote = chunk.indexOf('"', j);
    }
    if (this.nextQuote === -1) {
      this.appendRun(chunk, i, n, escaped);
      return n;
    }
    const end = this.nextQuote;
    this.appendRun(chunk, i, end, escaped);
    this.closed = !this.sink.failed();
    return end + 1;
  }

  private appendRun(chunk: string, from: number, to: number, escaped: boolean): void {
    if (to <= from) return;
    if (!escaped) {
      this.sink.append(chunk.slice(from, to));
      return;
    }
    const decoded = parseStrict(chunk.slice(from, to));
    if (decoded !== undefined) this.sink.append(decoded);
    else this.readSlowly(chunk, from, to);
  }

  private readSlowly(chunk: string, from: number, to: number): void {
    let k = from;
    while (k < to && !this.sink.failed()) {
      if (this.escape !== 0) {
        k = this.readEscape(chunk, k);
        continue;
      }
      const slash = chunk.indexOf('\\', k);
      if (slash === -1 || slash >= to) {
        this.sink.append(chunk.slice(k, to));
        return;
      }
      if (slash > k) this.sink.append(chunk.slice(k, slash));
      this.escape = 1;
      k = slash + 1;
    }
  }

  private readEscape(chunk: string, i: number): number {
    const ch = chunk[i] as string;
    if (this.escape === 1) {
      if (ch === 'u') {
        this.escape = 2;
        this.hex = '';
        return i + 1;
      }
      const mapped = ESCAPES[ch];
      if (mapped === undefined) {
        this.sink.fail(`bad escape "\\${ch}"`, i);
        return i + 1;
      }
      this.sink.append(mapped);
      this.escape = 0;
      return i + 1;
    }
    this.hex += ch;
    if (this.hex.length === 4) {
      if (!HEX4.test(this.hex)) {
        this.sink.fail(`bad unicode escape "\\u${this.hex}"`, i);
        return i + 1;
      }
      this.sink.append(String.fromCharCode(Number.parseInt(this.hex, 16)));
      this.escape = 0;
    }
    return i + 1;
  }
}

/** The text a run of raw JSON string characters stands for, or undefined when the run is not strict JSON. */
function parseStrict(raw: string): string | undefined {
  try {
    const value: unknown = JSON.parse(`"${raw}"`);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
