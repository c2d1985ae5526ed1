import { cleanTerminalText } from './verify-feedback.js';

/**
 * The failing tests of a TAP stream, as `node --test` prints it (and tap,
 * tape, prove): each `not ok N - name` line and the YAML block under it,
 * whose `error` says what the assertion found. A one-line summary of such a
 * run must name the test and its assertion; the stream's own footer
 * (`# fail 1 … # duration_ms`) says neither.
 */
export interface TapFailure {
  /** The `not ok` line as the runner printed it, trimmed. */
  line: string;
  /** The test's name. */
  name: string;
  /** The assertion's message, its lines joined with a space ('' when the block has none). */
  error: string;
  /** `file:line:column` of the test, when the block gives one. */
  location?: string;
}

const NOT_OK = /^(\s*)not ok \d+(?: - (.*?))?\s*$/;
const DIRECTIVE = /#\s*(SKIP|TODO)\b/i;
/** A suite's own failure only counts its children; the children say why. */
const SUBTESTS_FAILED = /^\d+ subtests? failed$/;

/** A YAML scalar as TAP prints it: quotes removed, `''` unescaped. */
function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\"/g, '"');
  return v;
}

/** The `key: value` of the YAML block starting at `from`, with `|-` blocks joined into one line. */
function diagnostics(lines: readonly string[], from: number, indent: number): Map<string, string> {
  const fields = new Map<string, string>();
  if (lines[from]?.trim() !== '---') return fields;
  let key: string | undefined;
  let block: string[] = [];
  let blockIndent = -1;
  const closeBlock = (): void => {
    if (key !== undefined) fields.set(key, block.filter((l) => l !== '').join(' '));
    key = undefined;
    block = [];
  };
  for (let i = from + 1; i < lines.length; i += 1) {
    const raw = lines[i] as string;
    if (raw.trim() === '...' || NOT_OK.test(raw)) break;
    const depth = raw.length - raw.trimStart().length;
    if (key !== undefined && (raw.trim() === '' || depth > blockIndent)) {
      block.push(raw.trim());
      continue;
    }
    closeBlock();
    const field = /^\s*([A-Za-z_]+):\s?(.*)$/.exec(raw);
    if (!field || depth <= indent) continue;
    const [, name, value] = field as unknown as [string, string, string];
    if (value.trim() === '|-' || value.trim() === '|' || value.trim() === '>-') {
      key = name;
      blockIndent = depth;
    } else fields.set(name, unquote(value));
  }
  closeBlock();
  return fields;
}

/** The failing tests in `output`, innermost first in the order they ran; [] when it is no TAP. */
export function tapFailures(output: string): TapFailure[] {
  const lines = cleanTerminalText(output).split('\n');
  const failures: TapFailure[] = [];
  lines.forEach((raw, index) => {
    const match = NOT_OK.exec(raw);
    if (!match || DIRECTIVE.test(raw)) return;
    const indent = (match[1] ?? '').length;
    const fields = diagnostics(lines, index + 1, indent);
    const error = fields.get('error') ?? '';
    if (SUBTESTS_FAILED.test(error)) return;
    const location = fields.get('location');
    failures.push({ line: raw.trim(), name: match[2] ?? '', error, ...(location ? { location } : {}) });
  });
  return failures;
}
