import { AgentOutputBuilder, type AgentOutput } from './agent-output.js';
import { JsonStreamParser } from './json-stream.js';
import { TextAccumulator } from './text-digest.js';

const TEXT_KEYS: ReadonlySet<string> = new Set(['result', 'text', 'summary']);

/**
 * Reads an agent's stdout incrementally and produces its AgentOutput digest.
 * Output that starts with `{` or `[` is parsed as JSON (one document, an array,
 * or a stream of documents); anything else is text. Memory stays bounded.
 */
export class OutputScanner {
  private readonly raw = new TextAccumulator();
  private readonly builder = new AgentOutputBuilder();
  private parser: JsonStreamParser | undefined;
  private decided = false;
  private looksLikeJson = false;
  private chars = 0;

  constructor(private readonly onEvent?: (event: unknown) => void) {}

  write(chunk: string): void {
    if (chunk.length === 0) return;
    this.chars += chunk.length;
    this.raw.write(chunk);
    if (!this.decided) {
      const first = chunk.search(/\S/);
      if (first === -1) return;
      this.decided = true;
      const ch = chunk[first];
      this.looksLikeJson = ch === '{' || ch === '[';
      if (this.looksLikeJson) {
        this.parser = new JsonStreamParser({
          textKeys: TEXT_KEYS,
          onValue: (value) => {
            this.builder.accept(value);
            this.onEvent?.(value);
          },
        });
        this.parser.write(chunk.slice(first));
      }
      return;
    }
    this.parser?.write(chunk);
  }

  end(): AgentOutput {
    this.parser?.end();
    return this.builder.finish(this.raw.digest(), this.chars, this.looksLikeJson, this.parser?.error, this.parser?.incomplete ?? false);
  }
}

/** Digest of a complete output held in memory (small outputs, tests, the mock backend). */
export function scanOutput(text: string): AgentOutput {
  const scanner = new OutputScanner();
  scanner.write(text);
  return scanner.end();
}
