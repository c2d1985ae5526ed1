import { JsonStringReader } from './json-string-reader.js';
import { TextAccumulator, type TextDigest } from '../../core/text-digest.js';
import { readWholeLine, WHOLE_LINE_CHARS, type JsonBounds } from './whole-line-json.js';

/**
 * An incremental JSON parser for agent output: one JSON document, a JSON array,
 * or a stream of concatenated / newline-separated documents (stream-json).
 *
 * It is fed text in chunks of any size and reports each complete top-level value.
 * Memory stays bounded whatever the input size: long strings under a "text
 * key" (`result`, `text`) are streamed into a TextAccumulator (head, tail,
 * error lines), and other long strings keep only their beginning. A string no
 * longer than `maxStringChars` is kept as it is, under any key.
 *
 * A value that starts a line is first read whole (whole-line-json.ts): a
 * stream is mostly such lines, and JSON.parse reads them several times faster.
 * A whole line the reader has no use for (`ignoredLines`) is not read at all. A line the chunk
 * cuts is held until the rest of it comes, so it too is read whole: a pipe cuts one line in
 * every chunk, and reading those by character cost as much as reading all the others.
 */
export interface JsonStreamOptions {
  onValue: (value: unknown) => void;
  textKeys?: ReadonlySet<string>;
  maxStringChars?: number;
  maxDepth?: number;
  /**
   * How values start that nobody reads (a tool's whole output, say): a sticky pattern tried
   * where a top-level value begins. Such a value, when the rest of its line is in the chunk and
   * ends like an object, counts as a value without being parsed; `onValue` receives undefined.
   */
  ignoredLines?: RegExp;
  /**
   * The longest start of a line held while a chunk cuts it (default: the longest line read
   * whole). Past it, or at 0, a cut line is read character by character.
   */
  maxHeldChars?: number;
}

const enum S {
  Top,
  Value,
  ArrFirst,
  ObjFirst,
  ObjKey,
  Colon,
  After,
  Str,
  Num,
  Lit,
}

interface Frame {
  container: Record<string, unknown> | unknown[];
  isArray: boolean;
  key: string;
}

const DEFAULT_MAX_STRING = 16 * 1024;
const MAX_KEY_CHARS = 1024;
const DEFAULT_MAX_DEPTH = 256;
const NUMBER_CHARS = /[0-9eE+\-.]/;
const NUMBER_SYNTAX = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export class JsonStreamParser {
  private state: S = S.Top;
  private readonly stack: Frame[] = [];
  private failure: string | undefined;
  private offset = 0;
  private values = 0;
  /** The start of a value whose line the chunks so far cut, in pieces (joined once, when its line ends). */
  private held: string[] = [];
  private heldChars = 0;
  // current string
  private strIsKey = false;
  private strParts: string[] = [];
  private strLength = 0;
  private strText: TextAccumulator | undefined;
  private readonly strings = new JsonStringReader({
    append: (piece) => this.appendString(piece),
    fail: (message, at) => this.fail(message, at),
    failed: () => this.failure !== undefined,
  });
  // current number / literal
  private token = '';

  private readonly textKeys: ReadonlySet<string>;
  private readonly maxString: number;
  private readonly maxDepth: number;
  private readonly bounds: JsonBounds;
  private readonly maxHeld: number;

  constructor(private readonly options: JsonStreamOptions) {
    this.textKeys = options.textKeys ?? new Set();
    this.maxString = options.maxStringChars ?? DEFAULT_MAX_STRING;
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.maxHeld = Math.min(options.maxHeldChars ?? WHOLE_LINE_CHARS, WHOLE_LINE_CHARS);
    this.bounds = { textKeys: this.textKeys, maxStringChars: this.maxString, maxKeyChars: MAX_KEY_CHARS, maxDepth: this.maxDepth };
  }

  private readonly onWholeValue = (value: unknown): void => {
    this.values += 1;
    this.options.onValue(value);
  };

  /** The syntax error that stopped parsing, if any. */
  get error(): string | undefined {
    return this.failure;
  }

  get valueCount(): number {
    return this.values;
  }

  /** True when the input ended (so far) in the middle of a value. */
  get incomplete(): boolean {
    return this.failure === undefined && (this.state !== S.Top || this.heldChars > 0);
  }

  write(chunk: string): void {
    if (this.failure !== undefined || chunk.length === 0) return;
    if (this.heldChars > 0 && this.heldChars + chunk.length <= this.maxHeld && chunk.indexOf('\n') === -1) {
      this.hold(chunk);
      return;
    }
    this.read(chunk, this.maxHeld);
  }

  private hold(piece: string): void {
    this.held.push(piece);
    this.heldChars += piece.length;
  }

  private read(piece: string, maxHeld: number): void {
    if (this.failure !== undefined) return;
    let chunk = piece;
    if (this.heldChars > 0) {
      this.held.push(piece);
      chunk = this.held.join('');
      this.held = [];
      this.heldChars = 0;
    }
    const n = chunk.length;
    let i = 0;
    this.strings.startChunk();
    while (i < n && this.failure === undefined) {
      if (this.state === S.Str) {
        i = this.strings.read(chunk, i);
        if (this.strings.closed) this.finishString();
        continue;
      }
      const ch = chunk[i] as string;
      const c = ch.charCodeAt(0);
      if (this.state === S.Num) {
        if (NUMBER_CHARS.test(ch)) {
          this.token += ch;
          i += 1;
          continue;
        }
        this.finishNumber();
        continue; // re-read this character in the new state
      }
      if (this.state === S.Lit) {
        if (c >= 0x61 && c <= 0x7a) {
          this.token += ch;
          i += 1;
          if (this.token.length > 5) this.fail(`unexpected literal "${this.token}"`, i);
          continue;
        }
        this.finishLiteral(i);
        continue;
      }
      if (isSpace(c)) {
        i += 1;
        continue;
      }
      if (this.state === S.Top && (c === 0x7b || c === 0x5b)) {
        const end = readWholeLine(chunk, i, this.bounds, this.onWholeValue, this.options.ignoredLines);
        if (end !== undefined) {
          i = end;
          continue;
        }
        if (n - i <= maxHeld && chunk.indexOf('\n', i) === -1) {
          // Positions in errors count from the input's start: the held characters are counted when read.
          this.hold(chunk.slice(i));
          this.offset += i;
          return;
        }
      }
      this.step(ch, i);
      i += 1;
    }
    this.offset += n;
  }

  /** Signals the end of input; finishes a trailing number or literal. */
  end(): void {
    // No more comes for a held line: the character reader says what is wrong with it.
    if (this.heldChars > 0) this.read('', 0);
    if (this.failure !== undefined) return;
    if (this.state === S.Num) this.finishNumber();
    else if (this.state === S.Lit) {
      // Cut inside `true`/`false`/`null`: the input is incomplete, not wrong.
      if (['true', 'false', 'null'].some((w) => w !== this.token && w.startsWith(this.token))) return;
      this.finishLiteral(0);
    }
  }

  private step(ch: string, i: number): void {
    switch (this.state) {
      case S.Top:
      case S.Value:
        this.startValue(ch, i);
        return;
      case S.ArrFirst:
        if (ch === ']') this.closeContainer(true, i);
        else this.startValue(ch, i);
        return;
      case S.ObjFirst:
        if (ch === '}') this.closeContainer(false, i);
        else if (ch === '"') this.startString(true);
        else this.fail(`expected a key or "}" but found "${ch}"`, i);
        return;
      case S.ObjKey:
        if (ch === '"') this.startString(true);
        else this.fail(`expected a key but found "${ch}"`, i);
        return;
      case S.Colon:
        if (ch === ':') this.state = S.Value;
        else this.fail(`expected ":" but found "${ch}"`, i);
        return;
      case S.After: {
        const top = this.stack[this.stack.length - 1] as Frame;
        if (ch === ',') this.state = top.isArray ? S.Value : S.ObjKey;
        else if (ch === ']' && top.isArray) this.closeContainer(true, i);
        else if (ch === '}' && !top.isArray) this.closeContainer(false, i);
        else this.fail(`expected "," or a closing bracket but found "${ch}"`, i);
        return;
      }
      default:
        this.fail(`unexpected "${ch}"`, i);
    }
  }

  private startValue(ch: string, i: number): void {
    if (ch === '{' || ch === '[') {
      if (this.stack.length >= this.maxDepth) {
        this.fail('nesting too deep', i);
        return;
      }
      const isArray = ch === '[';
      this.stack.push({ container: isArray ? [] : {}, isArray, key: '' });
      this.state = isArray ? S.ArrFirst : S.ObjFirst;
    } else if (ch === '"') {
      this.startString(false);
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      this.token = ch;
      this.state = S.Num;
    } else if (ch === 't' || ch === 'f' || ch === 'n') {
      this.token = ch;
      this.state = S.Lit;
    } else {
      this.fail(`unexpected "${ch}"`, i);
    }
  }

  private startString(isKey: boolean): void {
    this.strIsKey = isKey;
    this.strParts = [];
    this.strLength = 0;
    this.strText = undefined;
    this.strings.startString();
    if (!isKey) {
      const top = this.stack[this.stack.length - 1];
      if (top !== undefined && !top.isArray && this.textKeys.has(top.key)) this.strText = new TextAccumulator();
    }
    this.state = S.Str;
  }

  private appendString(piece: string): void {
    if (piece.length === 0) return;
    if (this.strText !== undefined) {
      this.strText.write(piece);
      return;
    }
    const cap = this.strIsKey ? MAX_KEY_CHARS : this.maxString;
    if (this.strLength < cap) this.strParts.push(piece.length > cap - this.strLength ? piece.slice(0, cap - this.strLength) : piece);
    this.strLength += piece.length;
  }

  private finishString(): void {
    if (this.strIsKey) {
      const top = this.stack[this.stack.length - 1] as Frame;
      top.key = this.strParts.join('');
      this.state = S.Colon;
      return;
    }
    const value = this.strText !== undefined ? this.textValue(this.strText.digest()) : this.strParts.join('');
    this.strText = undefined;
    this.strParts = [];
    this.completeValue(value);
  }

  /** A text short enough to keep whole stays a string; the head holds all of it then. */
  private textValue(digest: TextDigest): TextDigest | string {
    return digest.length <= this.maxString && !digest.truncated ? digest.head + digest.tail : digest;
  }

  private finishNumber(): void {
    if (!NUMBER_SYNTAX.test(this.token)) {
      this.fail(`bad number "${this.token}"`, 0);
      return;
    }
    this.completeValue(Number(this.token));
  }

  private finishLiteral(i: number): void {
    const word = this.token;
    if (word === 'true') this.completeValue(true);
    else if (word === 'false') this.completeValue(false);
    else if (word === 'null') this.completeValue(null);
    else this.fail(`unexpected literal "${word}"`, i);
  }

  private closeContainer(isArray: boolean, i: number): void {
    const frame = this.stack.pop();
    if (frame === undefined || frame.isArray !== isArray) {
      this.fail('mismatched bracket', i);
      return;
    }
    this.completeValue(frame.container);
  }

  private completeValue(value: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) {
      this.state = S.Top;
      this.values += 1;
      this.options.onValue(value);
      return;
    }
    if (top.isArray) {
      (top.container as unknown[]).push(value);
    } else if (top.key === '__proto__') {
      Object.defineProperty(top.container, top.key, { value, enumerable: true, writable: true, configurable: true });
    } else {
      (top.container as Record<string, unknown>)[top.key] = value;
    }
    this.state = S.After;
  }

  private fail(message: string, i: number): void {
    this.failure = `${message} at character ${this.offset + i + 1}`;
  }
}
