/**
 * Task mode's one-line syntax, as users write it:
 *
 *   >>fix-auth :: verify:"npm test" max:5 timeout:120 checkpoint:true rollback:true loop:true :fast
 *              :: "follows REST conventions" :: code-quality
 *
 * - `>>` is optional; the text before the first `::` is the task (a name such as
 *   `fix-auth`, or free text).
 * - `verify:"cmd"` (quotes " or ', or one bare word) starts the shell gate; the
 *   options after it in the same `::` gate belong to it: max, timeout (seconds),
 *   checkpoint, rollback, loop, workingDir, and one preset :fast/:full/:extended.
 * - Any other gate is a quality criterion: `"quoted text"`, a bare name
 *   (`code-quality`) or `name:"text"`.
 *
 * A quote opens a quoted value only at the start of a word or right after `:`,
 * so apostrophes in free text (`fix the user's login`) are plain characters.
 * Inside quotes, a backslash escapes the closing quote character; every other
 * backslash is kept as written, so shell commands pass through unchanged.
 *
 * Errors come back as data naming the token and its position: `index` is the
 * 0-based offset into the input; messages say "character N" counting from 1.
 */
import { editDistance } from './nearest-word.js';
import type { VerifyPreset } from './verify-presets.js';

export interface TaskVerify {
  command: string;
  max?: number;
  /** Seconds. */
  timeout?: number;
  checkpoint?: boolean;
  rollback?: boolean;
  loop?: boolean;
  preset?: VerifyPreset;
  workingDir?: string;
}

export interface TaskSpec {
  task: string;
  verify?: TaskVerify;
  criteria: string[];
}

export interface ParseError {
  message: string;
  token: string;
  index: number;
}

export type TaskSpecParse = { ok: true; spec: TaskSpec } | { ok: false; error: ParseError };

/** Same ranges as --verify-max and --verify-timeout. */
export const TASK_LIMITS = { max: { min: 1, max: 100 }, timeout: { min: 1, max: 3600 } } as const;

const OPTION_NAMES = ['max', 'timeout', 'checkpoint', 'rollback', 'loop', 'workingDir'] as const;
type OptionName = (typeof OPTION_NAMES)[number];
const PRESETS: readonly VerifyPreset[] = ['fast', 'full', 'extended'];
const KNOWN = `known: ${OPTION_NAMES.join(', ')}, ${PRESETS.map((p) => `:${p}`).join(', ')}`;
const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0']);

interface Token {
  /** Source text as written. */
  raw: string;
  /** 0-based offset of the token in the input. */
  index: number;
  /** Text with quotes removed. */
  text: string;
  /** Offset in `text` of the first colon outside quotes, or -1. */
  colon: number;
  /** Whether any part of the token was quoted. */
  quoted: boolean;
}

interface Segment {
  index: number;
  raw: string;
  tokens: Token[];
}

class SpecError extends Error {
  constructor(readonly detail: ParseError) {
    super(detail.message);
  }
}

function fail(message: string, token: string, index: number): never {
  throw new SpecError({ message, token, index });
}

const at = (index: number): string => `character ${index + 1}`;

/** Splits the input into `::`-separated segments of whitespace-separated tokens, honouring quotes. */
function lex(input: string, start: number): Segment[] {
  const segments: Segment[] = [];
  let segment: Segment = { index: start, raw: '', tokens: [] };
  let token: Token | undefined;
  let i = start;
  const closeToken = (): void => {
    if (token) segment.tokens.push(token);
    token = undefined;
  };
  while (i < input.length) {
    const ch = input[i] as string;
    if (ch === ':' && input[i + 1] === ':') {
      closeToken();
      segment.raw = input.slice(segment.index, i);
      segments.push(segment);
      i += 2;
      segment = { index: i, raw: '', tokens: [] };
      continue;
    }
    if (/\s/.test(ch)) {
      closeToken();
      i += 1;
      continue;
    }
    token ??= { raw: '', index: i, text: '', colon: -1, quoted: false };
    const prev = i === token.index ? ' ' : (input[i - 1] as string);
    if ((ch === '"' || ch === "'") && (prev === ' ' || prev === ':')) {
      let j = i + 1;
      let value = '';
      while (j < input.length && input[j] !== ch) {
        if (input[j] === '\\' && input[j + 1] === ch) {
          value += ch;
          j += 2;
        } else {
          value += input[j];
          j += 1;
        }
      }
      if (j >= input.length) fail(`unterminated quote (${ch}) starting at ${at(i)}`, input.slice(i), i);
      token.text += value;
      token.quoted = true;
      token.raw += input.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === ':' && token.colon === -1) token.colon = token.text.length;
    token.text += ch;
    token.raw += ch;
    i += 1;
  }
  closeToken();
  segment.raw = input.slice(segment.index);
  segments.push(segment);
  return segments;
}

function unquoteTask(segment: Segment): string {
  const only = segment.tokens.length === 1 ? segment.tokens[0] : undefined;
  if (only && only.quoted && only.raw.length >= 2 && only.raw[0] === only.raw.at(-1) && `"'`.includes(only.raw[0] as string)) return only.text.trim();
  return segment.raw.trim();
}

function parseCount(token: Token, name: 'max' | 'timeout', value: string): number {
  const { min, max } = TASK_LIMITS[name];
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const unit = name === 'timeout' ? ' of seconds' : '';
    fail(`invalid number "${token.raw}" at ${at(token.index)}; expected a whole number${unit} from ${min} to ${max}`, token.raw, token.index);
  }
  return n;
}

function parseBool(token: Token, value: string): boolean {
  const v = value.toLowerCase();
  if (TRUE_WORDS.has(v)) return true;
  if (FALSE_WORDS.has(v)) return false;
  return fail(`invalid value "${token.raw}" at ${at(token.index)}; expected true or false`, token.raw, token.index);
}

function optionName(key: string): OptionName | undefined {
  return OPTION_NAMES.find((name) => name.toLowerCase() === key.toLowerCase());
}

function applyOption(verify: TaskVerify, token: Token, seen: Set<string>): void {
  if (token.colon === 0) {
    const preset = PRESETS.find((p) => p === token.text.slice(1).toLowerCase());
    if (!preset) fail(`unknown option "${token.raw}" at ${at(token.index)}; ${KNOWN}`, token.raw, token.index);
    if (verify.preset) fail(`duplicate preset "${token.raw}" at ${at(token.index)}; only one of :fast, :full, :extended`, token.raw, token.index);
    verify.preset = preset;
    return;
  }
  const name = token.colon > 0 ? optionName(token.text.slice(0, token.colon)) : undefined;
  if (!name) fail(`unknown option "${token.raw}" at ${at(token.index)}; ${KNOWN}`, token.raw, token.index);
  if (seen.has(name)) fail(`duplicate option "${token.raw}" at ${at(token.index)}; ${name} is already set`, token.raw, token.index);
  seen.add(name);
  const value = token.text.slice(token.colon + 1);
  const trimmed = value.trim();
  if (trimmed === '') fail(`missing value in "${token.raw}" at ${at(token.index)}`, token.raw, token.index);
  switch (name) {
    case 'max':
      verify.max = parseCount(token, 'max', trimmed);
      break;
    case 'timeout':
      verify.timeout = parseCount(token, 'timeout', trimmed);
      break;
    case 'checkpoint':
    case 'rollback':
    case 'loop':
      verify[name] = parseBool(token, trimmed);
      break;
    case 'workingDir':
      verify.workingDir = value;
      break;
  }
}

function parseVerify(segment: Segment): TaskVerify {
  const [first, ...rest] = segment.tokens as [Token, ...Token[]];
  let command = first.text.slice(first.colon + 1);
  let options = rest;
  // Tolerate `verify: "npm test"` with a space after the colon.
  if (command === '' && !first.quoted && rest[0]?.quoted && rest[0].colon === -1) {
    command = rest[0].text;
    options = rest.slice(1);
  }
  if (command.trim() === '') fail(`empty verify command at ${at(first.index)}; write verify:"your command"`, first.raw, first.index);
  const verify: TaskVerify = { command: command.trim() };
  const stray = options[0];
  if (!first.quoted && stray && stray.colon === -1 && !stray.quoted) {
    // `verify:npm test`: the command's second word is not an option.
    fail(`unknown option "${stray.raw}" at ${at(stray.index)}; quote a command that has spaces: verify:"${command} ${stray.raw}"`, stray.raw, stray.index);
  }
  const seen = new Set<string>();
  for (const token of options) applyOption(verify, token, seen);
  return verify;
}

function parseCriterion(segment: Segment): string {
  const [first, ...rest] = segment.tokens as [Token, ...Token[]];
  if (first.quoted && first.colon === -1) {
    if (rest[0]) fail(`unexpected "${rest[0].raw}" at ${at(rest[0].index)} after the quoted criterion; separate gates with "::"`, rest[0].raw, rest[0].index);
    if (first.text.trim() === '') fail(`empty criterion at ${at(first.index)}`, first.raw, first.index);
    return first.text.trim();
  }
  if (first.colon > 0) {
    const key = first.text.slice(0, first.colon);
    if (optionName(key)) fail(`option "${first.raw}" at ${at(first.index)} must follow verify:"…" in the same "::" gate`, first.raw, first.index);
    if (editDistance(key.toLowerCase(), 'verify') <= 2) fail(`unknown gate "${key}:" at ${at(first.index)}; did you mean verify:?`, first.raw, first.index);
    if (rest.length === 0) return `${key}: ${first.text.slice(first.colon + 1).trim()}`;
  }
  if (first.colon === 0) fail(`option "${first.raw}" at ${at(first.index)} must follow verify:"…" in the same "::" gate`, first.raw, first.index);
  return segment.raw.trim();
}

export function parseTaskSpec(input: string): TaskSpecParse {
  try {
    let start = input.length - input.trimStart().length;
    if (input.startsWith('>>', start)) start += 2;
    const [taskSegment, ...gates] = lex(input, start) as [Segment, ...Segment[]];
    const task = unquoteTask(taskSegment);
    if (task === '') fail('missing task: write the task before the first "::" (for example >>fix-auth :: verify:"npm test")', input.trim(), start);
    const spec: TaskSpec = { task, criteria: [] };
    for (const segment of gates) {
      const first = segment.tokens[0];
      if (!first) fail(`empty gate after "::" at ${at(segment.index - 2)}`, '::', segment.index - 2);
      if (first.colon > 0 && first.text.slice(0, first.colon).toLowerCase() === 'verify') {
        if (spec.verify) fail(`duplicate verify gate "${first.raw}" at ${at(first.index)}; only one verify:"…" is allowed`, first.raw, first.index);
        spec.verify = parseVerify(segment);
      } else {
        spec.criteria.push(parseCriterion(segment));
      }
    }
    return { ok: true, spec };
  } catch (error) {
    if (error instanceof SpecError) return { ok: false, error: error.detail };
    throw error;
  }
}
