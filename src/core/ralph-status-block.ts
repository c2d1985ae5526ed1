/**
 * The RALPH_STATUS block the agent ends each answer with:
 *
 *   ---RALPH_STATUS---
 *   STATUS: IN_PROGRESS | COMPLETE | BLOCKED
 *   ...
 *   EXIT_SIGNAL: false | true
 *   ---END_RALPH_STATUS---
 *
 * Only the LAST block counts and only its own lines are read, as exact
 * `KEY: value` pairs. This fixes the original's grep-based quirks:
 * `TESTS_STATUS` no longer pollutes `STATUS`, duplicate or bold values work,
 * booleans are case-insensitive, and text outside the block sets nothing.
 * Markdown emphasis, code fences, list bullets, CRLF and the YAML form
 * (`RALPH_STATUS:` followed by indented keys) are tolerated.
 */
export interface StatusBlock {
  status?: string;
  exitSignal?: boolean;
  tasksCompleted?: number;
  filesModified?: number;
  testsStatus?: string;
  workType?: string;
  recommendation?: string;
  /** Every key/value read from the block, keys upper-cased. */
  fields: Record<string, string>;
  /** Problems with values (an EXIT_SIGNAL that is not a boolean, …). */
  warnings: string[];
}

const OPEN_DASHED = /^-{3,}\s*RALPH_STATUS\s*-{3,}$/i;
const OPEN_YAML = /^RALPH_STATUS\s*:\s*$/i;
const OPEN_HEADING = /^#{1,6}\s*RALPH_STATUS\s*$/i;
const CLOSE = /^-{3,}\s*END_RALPH_STATUS\s*-{3,}$/i;
const FENCE = /^(```|~~~)/;
const PAIR = /^([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$/;

/** Removes markdown decoration around a line or value: **bold**, *em*, `code`, quotes, bullets. */
function undecorate(text: string): string {
  let s = text.trim();
  s = s.replace(/^>\s*/, '').replace(/^[-*+]\s+/, '');
  for (;;) {
    const before = s;
    s = s.replace(/^(\*\*|__|\*|_|`)(.*)\1$/s, '$2').trim();
    s = s.replace(/^["'](.*)["']$/s, '$1').trim();
    if (s === before) return s;
  }
}

/** `**KEY:** value`, `**KEY**: value`, `- KEY: value` → [KEY, value]. */
function readPair(line: string): [string, string] | undefined {
  let s = line
    .trim()
    .replace(/^>\s*/, '')
    .replace(/^[-*+]\s+/, '');
  s = s.replace(/^(\*\*|__)([A-Za-z_][A-Za-z0-9_]*)\s*:\s*\1/, '$2:').replace(/^(\*\*|__)([A-Za-z_][A-Za-z0-9_]*)\1\s*:/, '$2:');
  s = s.replace(/^`([A-Za-z_][A-Za-z0-9_]*)\s*:`/, '$1:');
  const m = PAIR.exec(s);
  if (!m) return undefined;
  return [(m[1] as string).toUpperCase(), undecorate(m[2] as string)];
}

function isOpener(line: string): boolean {
  const s = undecorate(line);
  return OPEN_DASHED.test(s) || OPEN_YAML.test(s) || OPEN_HEADING.test(s);
}

function parseBoolean(value: string): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'yes') return true;
  if (v === 'false' || v === 'no') return false;
  return undefined;
}

function parseCount(value: string): number | undefined {
  const m = /^(\d+)/.exec(value.trim());
  return m ? Number(m[1]) : undefined;
}

function normalizeWord(value: string): string {
  return value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
}

/** Finds and reads the last RALPH_STATUS block; undefined when there is none. */
export function parseStatusBlock(text: string): StatusBlock | undefined {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  let start = -1;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    if (isOpener(lines[i] as string)) {
      start = i;
      break;
    }
  }
  if (start === -1) return undefined;
  const fields: Record<string, string> = {};
  let sawPair = false;
  for (let i = start + 1; i < lines.length; i += 1) {
    const raw = lines[i] as string;
    const plain = undecorate(raw);
    if (CLOSE.test(plain)) break;
    if (FENCE.test(raw.trim())) {
      if (sawPair) break;
      continue;
    }
    if (plain === '') {
      if (sawPair) break;
      continue;
    }
    const pair = readPair(raw);
    if (!pair) {
      if (sawPair) break;
      continue;
    }
    sawPair = true;
    fields[pair[0]] = pair[1];
  }
  return interpret(fields);
}

function interpret(fields: Record<string, string>): StatusBlock {
  const block: StatusBlock = { fields, warnings: [] };
  const get = (key: string): string | undefined => fields[key];
  const status = get('STATUS');
  if (status !== undefined && status !== '') block.status = normalizeWord(status);
  const exit = get('EXIT_SIGNAL');
  if (exit !== undefined) {
    const value = parseBoolean(exit);
    if (value === undefined) block.warnings.push(`EXIT_SIGNAL "${exit}" is not true or false; ignored`);
    else block.exitSignal = value;
  }
  const tasks = get('TASKS_COMPLETED_THIS_LOOP');
  if (tasks !== undefined) {
    const n = parseCount(tasks);
    if (n !== undefined) block.tasksCompleted = n;
  }
  const files = get('FILES_MODIFIED');
  if (files !== undefined) {
    const n = parseCount(files);
    if (n !== undefined) block.filesModified = n;
  }
  const tests = get('TESTS_STATUS');
  if (tests !== undefined && tests !== '') block.testsStatus = normalizeWord(tests);
  const work = get('WORK_TYPE');
  if (work !== undefined && work !== '') block.workType = normalizeWord(work);
  const recommendation = get('RECOMMENDATION');
  if (recommendation !== undefined && recommendation !== '') block.recommendation = recommendation;
  return block;
}

/** The text with the last status block removed (for heuristics that must not read it). */
export function withoutStatusBlock(text: string): string {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    if (isOpener(lines[i] as string)) {
      let end = i + 1;
      while (end < lines.length && !CLOSE.test(undecorate(lines[end] as string))) end += 1;
      if (end < lines.length) end += 1;
      else {
        end = i + 1;
        while (end < lines.length && (lines[end] as string).trim() !== '') end += 1;
      }
      return [...lines.slice(0, i), ...lines.slice(end)].join('\n');
    }
  }
  return text;
}
