import { forEachLinePiece } from '../../core/line-pieces.js';
import { TextAccumulator } from '../../core/text-digest.js';
import { ClaudeOutputBuilder, type ClaudeOutput } from './claude-output.js';
import { JsonStreamParser } from './json-stream.js';

const TEXT_KEYS: ReadonlySet<string> = new Set(['result', 'text', 'summary']);

/**
 * Events neither the digest nor the progress reads: a tool's result (often a whole file or a
 * test run's output) and the pieces of a tool call's input as it streams. Their lines are
 * counted, not parsed.
 */
const IGNORED_EVENTS = /\{"type":"(?:user"|stream_event","event":\{"type":"content_block_delta","index":\d+,"delta":\{"type":"input_json_delta")/y;

/**
 * Reads an agent's stdout incrementally and produces its ClaudeOutput digest.
 * JSON (one document, an array, or a stream of documents) is found line by
 * line: a line that starts with `{` or `[` between values is JSON, any other
 * line there is noise — a wrapper's notice or a shell profile's greeting
 * printed before (or between) Claude's JSON must not turn the whole answer
 * into text. Output with no JSON at all is text. Memory stays bounded: JSON is
 * parsed as it streams, and noise lines are skipped without being kept.
 */
export class OutputScanner {
  /** The whole stdout as text (a text answer, or output that is not valid JSON): head, tail, error lines. */
  private readonly raw = new TextAccumulator();
  private readonly builder = new ClaudeOutputBuilder();
  private parser: JsonStreamParser | undefined;
  /** Inside a noise line: skip to its end. */
  private skippingLine = false;
  private noiseLines = 0;
  /** The first characters of a line whose kind is not known yet (a few at most). */
  private lineStart = '';

  constructor(private readonly onEvent?: (event: unknown) => void) {}

  write(chunk: string): void {
    this.raw.write(chunk);
    forEachLinePiece(chunk, (piece, lineEnded) => this.readPiece(piece, lineEnded));
  }

  private readPiece(piece: string, lineEnded: boolean): void {
    if (this.skippingLine) {
      if (lineEnded) this.skippingLine = false;
    } else if (this.parser && (this.parser.incomplete || this.parser.error !== undefined)) {
      // Inside a value (or after a syntax error, which the parser keeps): it reads on.
      this.parser.write(piece);
    } else {
      this.readLineStart(piece, lineEnded);
    }
  }

  /** Between values: collects the start of a line until it shows whether JSON begins there. */
  private readLineStart(piece: string, lineEnded: boolean): void {
    // Nearly every line of a stream starts its value at once: no pattern runs on those.
    const text = this.lineStart !== '' ? this.lineStart + piece : piece.charCodeAt(0) === 0x7b ? piece : piece.replace(/^\s+/, '');
    if (text === '') return;
    const verdict = classifyLineStart(text, lineEnded);
    if (verdict === 'undecided') {
      this.lineStart = text;
      return;
    }
    this.lineStart = '';
    if (verdict === 'json') {
      this.parserForJson().write(text);
      return;
    }
    this.noiseLines += 1;
    if (!lineEnded) this.skippingLine = true;
  }

  end(): ClaudeOutput {
    this.parser?.end();
    const sawJson = this.parser !== undefined;
    const output = this.builder.finish(this.raw.digest(), this.raw.chars, sawJson, this.parser?.error, this.parser?.incomplete ?? false);
    if (!sawJson || this.noiseLines === 0 || output.format === 'text') return output;
    if (!output.hasResult && output.selfReport === undefined) {
      // Text that merely contains a JSON-looking line is still text.
      output.format = 'text';
      output.text = this.raw.digest();
      return output;
    }
    output.warnings.push(`${this.noiseLines} line(s) of agent output that are not JSON were skipped`);
    return output;
  }

  private parserForJson(): JsonStreamParser {
    this.parser ??= new JsonStreamParser({
      textKeys: TEXT_KEYS,
      ignoredLines: IGNORED_EVENTS,
      onValue: (value) => {
        this.builder.accept(value);
        this.onEvent?.(value);
      },
    });
    return this.parser;
  }
}

/** What a JSON value may start with after "[" ("[wrapper] notice" is no array). */
const ARRAY_START = /^\[\s*(?:[[{"\]\d-]|true\b|false\b|null\b)/;
const LINE_START_CHARS = 8;

/** Whether a line (its start, leading spaces removed) begins a JSON value. */
export function classifyLineStart(text: string, lineEnded: boolean): 'json' | 'noise' | 'undecided' {
  if (text.startsWith('{')) return 'json';
  if (!text.startsWith('[')) return 'noise';
  if (ARRAY_START.test(text)) return 'json';
  // A pretty-printed array opens on a line of its own: read on (within reason).
  if (/^\[\s*$/.test(text) && text.length < 4096) return 'undecided';
  return lineEnded || text.length >= LINE_START_CHARS ? 'noise' : 'undecided';
}

/** Digest of a complete output held in memory (small outputs, tests, the mock backend). */
export function scanOutput(text: string): ClaudeOutput {
  const scanner = new OutputScanner();
  scanner.write(text);
  return scanner.end();
}
