import { forEachLinePiece } from '../../core/line-pieces.js';
import { TextAccumulator, type TextDigest } from '../../core/text-digest.js';
import { JsonStreamParser } from '../claude/json-stream.js';
import { CodexOutputBuilder, type CodexOutput } from './codex-output.js';

/** Strings kept as digests (head, tail, error lines) however long: answers and command output. */
const TEXT_KEYS: ReadonlySet<string> = new Set(['text', 'aggregated_output']);

export interface CodexStream {
  output: CodexOutput;
  /** The whole stdout as text: what the answer is when Codex printed no events at all. */
  raw: TextDigest;
  chars: number;
}

/**
 * Reads `codex exec --json` stdout as it arrives: one JSON event per line. Each line gets a
 * parser of its own, so a line that is cut or broken costs that line only, and a line that
 * does not start with "{" (a notice some wrapper printed) is skipped. Memory stays bounded:
 * each line is parsed as it streams and its long strings are kept as digests.
 */
export class CodexStreamReader {
  private readonly raw = new TextAccumulator();
  private readonly builder = new CodexOutputBuilder();
  private parser: JsonStreamParser | undefined;
  private atLineStart = true;
  private skipping = false;
  private noiseLines = 0;
  private brokenLines = 0;

  constructor(private readonly onEvent?: (event: unknown) => void) {}

  write(chunk: string): void {
    this.raw.write(chunk);
    forEachLinePiece(chunk, (piece, ended) => this.readPiece(piece, ended));
  }

  private readPiece(piece: string, ended: boolean): void {
    if (this.parser) {
      this.parser.write(piece);
    } else if (this.skipping) {
      // Inside a line that is no event: read on to its end.
    } else if (this.atLineStart) {
      const text = piece.trimStart();
      if (text === '') {
        if (ended) this.atLineStart = true;
        return;
      }
      this.atLineStart = false;
      if (text.startsWith('{')) {
        this.parser = this.newParser();
        this.parser.write(text);
      } else {
        this.noiseLines += 1;
        this.skipping = true;
      }
    }
    if (ended) this.endLine();
  }

  private endLine(): void {
    if (this.parser) {
      this.parser.end();
      if (this.parser.error !== undefined || this.parser.incomplete) this.brokenLines += 1;
      this.parser = undefined;
    }
    this.skipping = false;
    this.atLineStart = true;
  }

  private newParser(): JsonStreamParser {
    return new JsonStreamParser({
      textKeys: TEXT_KEYS,
      onValue: (value) => {
        this.builder.accept(value);
        this.onEvent?.(value);
      },
    });
  }

  end(): CodexStream {
    this.endLine();
    const warnings: string[] = [];
    if (this.brokenLines > 0) warnings.push(`${this.brokenLines} line(s) of Codex output were not valid JSON events and were skipped`);
    const output = this.builder.finish(warnings);
    if (this.noiseLines > 0 && output.events > 0) output.warnings.push(`${this.noiseLines} line(s) of Codex output that are not JSON were skipped`);
    return { output, raw: this.raw.digest(), chars: this.raw.chars };
  }
}

/** The digest of a complete stdout held in memory (recorded fixtures, tests). */
export function readCodexStdout(stdout: string, onEvent?: (event: unknown) => void): CodexStream {
  const reader = new CodexStreamReader(onEvent);
  reader.write(stdout);
  return reader.end();
}
