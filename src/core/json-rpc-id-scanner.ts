/**
 * Finds the top-level `"id"` of a JSON-RPC message read in chunks, without
 * keeping the message: a request too large to hold is discarded as it
 * arrives, yet its answer must carry its id so the client's pending call ends.
 * Only the first `id` member of the top-level object counts; a nested `id`
 * (inside params) is skipped. Constant memory: at most a short key or id is
 * held at once.
 */

export type JsonRpcId = string | number | null;

const MAX_CAPTURE = 256;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

type Capture = 'none' | 'key' | 'id-string' | 'id-literal';

export class JsonRpcIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private awaitingColon = false;
  private afterColon = false;
  private lastKey: string | undefined;
  private capture: Capture = 'none';
  private captured: number[] = [];
  private overflow = false;
  private started = false;
  private done = false;
  private found: JsonRpcId | undefined;

  /** The id, once seen; undefined when there is none (yet), or it was not a string, number or null. */
  get id(): JsonRpcId | undefined {
    return this.found;
  }

  feed(bytes: Uint8Array): void {
    for (const b of bytes) {
      if (this.done) return;
      this.step(b);
    }
  }

  /** Call at the end of the message: a number id running to the very end is completed. */
  end(): JsonRpcId | undefined {
    if (this.capture === 'id-literal') this.finishLiteral();
    return this.found;
  }

  private keep(b: number): void {
    if (this.captured.length >= MAX_CAPTURE) this.overflow = true;
    else this.captured.push(b);
  }

  private text(): string {
    return new TextDecoder().decode(Uint8Array.from(this.captured));
  }

  private finishString(): void {
    if (this.capture === 'key') {
      this.lastKey = this.overflow ? undefined : this.text();
      this.awaitingColon = true;
      this.expectKey = false;
    } else if (this.capture === 'id-string' && !this.overflow) {
      try {
        const value: unknown = JSON.parse(`"${this.text()}"`);
        if (typeof value === 'string') this.settle(value);
      } catch {
        this.done = true;
      }
    }
    this.capture = 'none';
  }

  private finishLiteral(): void {
    this.capture = 'none';
    const raw = this.text();
    if (raw === 'null') this.settle(null);
    else if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw) && !this.overflow) this.settle(Number(raw));
    else this.done = true;
  }

  private settle(id: JsonRpcId): void {
    this.found = id;
    this.done = true;
  }

  private startCapture(kind: Capture, first?: number): void {
    this.capture = kind;
    this.captured = first === undefined ? [] : [first];
    this.overflow = false;
  }

  private step(b: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        this.finishString();
        return;
      }
      if (this.capture !== 'none') this.keep(b);
      return;
    }
    if (this.capture === 'id-literal') {
      if (/[0-9a-zA-Z.+-]/.test(String.fromCharCode(b))) {
        this.keep(b);
        return;
      }
      this.finishLiteral();
      if (this.done) return;
    }
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) return;
    if (!this.started) {
      this.started = true;
      // A batch or anything but an object has no single id.
      if (b !== 0x7b) {
        this.done = true;
        return;
      }
    }
    const valueForId = this.depth === 1 && this.afterColon && this.lastKey === 'id';
    if (this.depth === 1 && this.afterColon && b !== COLON) this.afterColon = false;
    switch (b) {
      case QUOTE:
        this.inString = true;
        if (this.depth === 1 && this.expectKey) this.startCapture('key');
        else if (valueForId) this.startCapture('id-string');
        return;
      case 0x7b: // {
      case 0x5b: // [
        if (valueForId) this.done = true; // an object or array is no valid id
        this.depth += 1;
        if (this.depth === 1) this.expectKey = true;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        this.depth -= 1;
        if (this.depth <= 0) this.done = true;
        return;
      case COLON:
        if (this.depth === 1 && this.awaitingColon) {
          this.awaitingColon = false;
          this.afterColon = true;
        }
        return;
      case COMMA:
        if (this.depth === 1) {
          this.expectKey = true;
          this.lastKey = undefined;
        }
        return;
      default:
        if (valueForId) this.startCapture('id-literal', b);
    }
  }
}
