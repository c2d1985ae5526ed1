import { clipText } from '../core/message-bounds.js';

/**
 * Reads a .ralphrc file as data. The original `source`s it as bash, running any code in it;
 * we parse `KEY=value` lines and never run anything: quotes, `export`,
 * comments and `$VAR` references work, command substitution is refused.
 */
export interface RalphrcEntry {
  key: string;
  value: string;
  line: number;
}

export interface RalphrcIssue {
  line: number;
  message: string;
}

export interface ParsedRalphrc {
  entries: RalphrcEntry[];
  errors: RalphrcIssue[];
}

import { isHarmlessName, isSecretName, judgeValue } from '../core/secret-env.js';

/**
 * The longest value a setting may have, before and after `$VAR` expansion. A
 * setting is a command line or a list of tools, never data: a value of
 * megabytes is a mistake, and read into every command and every agent call
 * it made each command take many seconds.
 */
export const RALPHRC_MAX_VALUE_CHARS = 64 * 1024;

/** The largest .ralphrc read, for the same reason (see ralphrc-file.ts). */
export const RALPHRC_MAX_BYTES = 1024 * 1024;

const tooLong = (what: string): string =>
  `${what} is longer than ${RALPHRC_MAX_VALUE_CHARS} characters, the most a setting may hold; shorten it (a long list belongs in a file the command reads)`;

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

type ValueResult = { ok: true; value: string } | { ok: false; message: string };

function expandVariables(raw: string, lookup: (name: string) => string | undefined): ValueResult {
  if (/\$\(|`/.test(raw)) {
    return { ok: false, message: 'command substitution ($(...) or backticks) is not supported: .ralphrc is read, never executed' };
  }
  // A secret expanded into a setting would be shown wherever settings are: the
  // verify command line, status files, logs, the terminal and --config. Judged by
  // the rules that keep credentials from the agent: the variable's name, then its value.
  for (const match of raw.matchAll(REFERENCE)) {
    const name = (match[1] ?? match[2]) as string;
    if (isSecretName(name)) return { ok: false, message: explainRefusedSecret(name, 'looks like a secret') };
    const value = lookup(name);
    if (value !== undefined && judgeValue(value, { randomRuns: !isHarmlessName(name) }).kind !== 'clean')
      return { ok: false, message: explainRefusedSecret(name, 'holds what looks like a credential') };
  }
  // Counted as it grows: `$A$A$A…` of a long A must not build a value of gigabytes before it is refused.
  let length = raw.length;
  let over = false;
  const value = raw.replace(REFERENCE, (reference: string, braced: string | undefined, bare: string | undefined) => {
    const expanded = over ? '' : (lookup((braced ?? bare) as string) ?? '');
    length += expanded.length - reference.length;
    if (length > RALPHRC_MAX_VALUE_CHARS) over = true;
    return over ? '' : expanded;
  });
  if (over) return { ok: false, message: tooLong('the value with its $VAR references expanded') };
  return { ok: true, value };
}

function explainRefusedSecret(name: string, why: string): string {
  return (
    `$${name} ${why} and is not expanded into a setting (it would show up in the command line, status files, logs and --config). ` +
    `Give it to the verify command with --verify-env ${name}=… (or VERIFY_ENV) and write the setting in single quotes, e.g. '… "$${name}"', so the command's own shell expands it`
  );
}

/**
 * A value part that names a secret rather than holding it: a `$NAME` reference (left for the
 * command's own shell) or a variable's name (`-c model_providers.x.env_key="AZURE_OPENAI_API_KEY"`).
 */
const ONLY_REFERENCE = /^["']*(?:\$(?:\{\w+\}|\w+)|[A-Z][A-Z0-9_]*)["']*$/;

/**
 * Why a value written in .ralphrc itself looks like a credential (a token, a password in a URL,
 * `password=…`), or undefined. `$NAME` references and variable names are left out: they are the
 * right way to name one.
 */
function literalCredential(value: string): string | undefined {
  const verdict = judgeValue(value);
  if (verdict.kind === 'secret') return 'looks like it holds a credential (a token or key)';
  if (verdict.kind === 'stripped' && verdict.removed.some((part) => !ONLY_REFERENCE.test(part))) return 'holds a password or key';
  return undefined;
}

/** Keys whose values are secrets by design, handed to the redactor (VERIFY_ENV) or names only (AGENT_ENV). */
const SECRET_HOLDING_KEYS = new Set(['VERIFY_ENV', 'AGENT_ENV']);

function explainLiteralCredential(why: string): string {
  return (
    `the value ${why}; a secret written in .ralphrc shows up in the command line, status files, logs and --config. ` +
    'Export it in your shell instead, give it to the verify command with --verify-env NAME=… (or VERIFY_ENV), ' +
    `and refer to it in single quotes, e.g. '… "$NAME"', so the command's own shell expands it`
  );
}

function afterValue(rest: string): string | undefined {
  const trimmed = rest.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  return trimmed;
}

function parseValue(raw: string, lookup: (name: string) => string | undefined): ValueResult {
  const first = raw[0];
  if (first === "'") {
    const end = raw.indexOf("'", 1);
    if (end === -1) return { ok: false, message: 'unterminated single quote' };
    const extra = afterValue(raw.slice(end + 1));
    if (extra !== undefined) return { ok: false, message: `unexpected text after the closing quote: ${clipText(extra)}` };
    return { ok: true, value: raw.slice(1, end) };
  }
  if (first === '"') {
    let out = '';
    for (let i = 1; i < raw.length; i += 1) {
      const ch = raw[i] as string;
      if (ch === '\\' && i + 1 < raw.length && '"\\$`'.includes(raw[i + 1] as string)) {
        // Escaped specials are literal; mark `$` so expansion leaves it alone.
        out += raw[i + 1] === '$' ? '\u0000' : raw[i + 1];
        i += 1;
        continue;
      }
      if (ch === '"') {
        const extra = afterValue(raw.slice(i + 1));
        if (extra !== undefined) return { ok: false, message: `unexpected text after the closing quote: ${clipText(extra)}` };
        const expanded = expandVariables(out, lookup);
        return expanded.ok ? { ok: true, value: expanded.value.replace(/\u0000/g, '$') } : expanded;
      }
      out += ch;
    }
    return { ok: false, message: 'unterminated double quote (values must fit on one line)' };
  }
  if (first === '(') return { ok: false, message: 'bash arrays are not supported; use a comma-separated value, e.g. ALLOWED_TOOLS="Write,Read,Bash(git *)"' };
  // Unquoted: the value ends at whitespace followed by a comment.
  const comment = raw.search(/\s#/);
  const bare = (comment === -1 ? raw : raw.slice(0, comment)).trim();
  if (/\$\(|`/.test(bare)) return expandVariables(bare, lookup);
  if (/\s/.test(bare)) return { ok: false, message: 'unquoted value contains spaces; put the value in quotes' };
  return expandVariables(bare, lookup);
}

/**
 * @param env used for `$VAR` references that are not defined earlier in the file
 */
export function parseRalphrc(text: string, env: Readonly<Record<string, string | undefined>> = {}): ParsedRalphrc {
  const entries: RalphrcEntry[] = [];
  const errors: RalphrcIssue[] = [];
  const defined = new Map<string, string>();
  const lookup = (name: string): string | undefined => defined.get(name) ?? env[name];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((rawLine, index) => {
    const lineNo = index + 1;
    let line = rawLine.replace(/\r$/, '').trim();
    if (line === '' || line.startsWith('#')) return;
    if (line.startsWith('export ')) line = line.slice('export '.length).trimStart();
    const eq = line.indexOf('=');
    if (eq <= 0) {
      errors.push({ line: lineNo, message: `expected KEY=value but found "${clipText(line)}"` });
      return;
    }
    const key = line.slice(0, eq);
    if (!KEY.test(key)) {
      errors.push({ line: lineNo, message: `"${clipText(key)}" is not a valid key name (letters, digits and _ only, no spaces around =)` });
      return;
    }
    const parsed = parseValue(line.slice(eq + 1), lookup);
    if (parsed.ok && parsed.value.length > RALPHRC_MAX_VALUE_CHARS) {
      errors.push({ line: lineNo, message: `${key}: ${tooLong('the value')}` });
      return;
    }
    if (!parsed.ok) {
      errors.push({ line: lineNo, message: `${clipText(key)}: ${parsed.message}` });
      return;
    }
    const literal = SECRET_HOLDING_KEYS.has(key) ? undefined : literalCredential(line.slice(eq + 1));
    if (literal !== undefined) {
      errors.push({ line: lineNo, message: `${clipText(key)}: ${explainLiteralCredential(literal)}` });
      return;
    }
    defined.set(key, parsed.value);
    entries.push({ key, value: parsed.value, line: lineNo });
  });
  return { entries, errors };
}
