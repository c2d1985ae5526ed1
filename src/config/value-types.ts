/**
 * Typed readers for configuration values. Each takes the raw text of a value
 * (from a flag, the environment or .ralphrc) and returns the typed value or
 * a description of what would have been accepted.
 */
import { formatQuotaThreshold, parseQuotaThreshold, QUOTA_THRESHOLD_EXPECTED, type QuotaThreshold } from '../core/quota-windows.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; expected: string };

export interface ValueType<T> {
  parse(raw: string): Parsed<T>;
  /** Human description of accepted values, for help and errors. */
  readonly expected: string;
  /** How a value is written back (for --config and templates). */
  format(value: T): string;
}

export function integer(min: number, max = Number.MAX_SAFE_INTEGER, unit = ''): ValueType<number> {
  const range = max === Number.MAX_SAFE_INTEGER ? (min === 0 ? 'a whole number ≥ 0' : `a whole number ≥ ${min}`) : `a whole number from ${min} to ${max}`;
  const expected = unit ? `${range} (${unit})` : range;
  return {
    expected,
    parse(raw) {
      const text = raw.trim();
      if (!/^-?\d+$/.test(text)) return { ok: false, expected };
      const value = Number(text);
      if (!Number.isSafeInteger(value) || value < min || value > max) return { ok: false, expected };
      return { ok: true, value };
    },
    format: String,
  };
}

export function decimal(min: number, unit = ''): ValueType<number> {
  const expected = unit ? `a number ≥ ${min} (${unit})` : `a number ≥ ${min}`;
  return {
    expected,
    parse(raw) {
      const text = raw.trim();
      if (!/^\d+(\.\d+)?$/.test(text)) return { ok: false, expected };
      const value = Number(text);
      if (!Number.isFinite(value) || value < min) return { ok: false, expected };
      return { ok: true, value };
    },
    format: String,
  };
}

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0']);

export const boolean: ValueType<boolean> = {
  expected: 'true or false (also yes/no, on/off, 1/0)',
  parse(raw) {
    const text = raw.trim().toLowerCase();
    if (TRUE_WORDS.has(text)) return { ok: true, value: true };
    if (FALSE_WORDS.has(text)) return { ok: true, value: false };
    return { ok: false, expected: this.expected };
  },
  format: String,
};

export function oneOf<T extends string>(values: readonly T[]): ValueType<T> {
  // An empty value means "unset" in .ralphrc; it is not a choice to offer.
  const expected = `one of ${values.filter((v) => v !== '').join(', ')}`;
  return {
    expected,
    parse(raw) {
      const text = raw.trim().toLowerCase();
      const found = values.find((v) => v.toLowerCase() === text);
      return found === undefined ? { ok: false, expected } : { ok: true, value: found };
    },
    format: String,
  };
}

export const text: ValueType<string> = {
  expected: 'text',
  parse(raw) {
    return { ok: true, value: raw };
  },
  format: (v) => v,
};

/** Splits at commas that are not inside parentheses: `Bash(a, b),Read` → two items. */
export function splitTopLevelCommas(raw: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of raw) {
    if (ch === '(') depth += 1;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      items.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  items.push(current);
  return items.map((s) => s.trim()).filter((s) => s.length > 0);
}

export function commaList(): ValueType<string[]> {
  return {
    expected: 'a comma-separated list',
    parse(raw) {
      return { ok: true, value: splitTopLevelCommas(raw) };
    },
    format: (v) => v.join(','),
  };
}

/**
 * Tool names as Claude Code accepts them: plain names (`Write`, `Agent`,
 * `Skill`), MCP tools (`mcp__server__tool`), rule patterns (`Bash(git *)`,
 * `WebFetch(domain:example.com)`) and `*`. Only the syntax is checked, so new
 * tools keep working.
 */
const TOOL_NAME = /^(\*|[A-Za-z][\w.-]*(\(.+\))?)$/s;

export const toolList: ValueType<string[]> = {
  expected: 'comma-separated tool names such as Write,Read,Edit,Bash(npm *),mcp__server__tool',
  parse(raw) {
    const items = splitTopLevelCommas(raw);
    for (const item of items) {
      if (!TOOL_NAME.test(item)) {
        const hint = /\s/.test(item) && !item.includes('(') ? ' (separate tool names with commas)' : '';
        return { ok: false, expected: `${this.expected}; "${item}" is not a tool name${hint}` };
      }
    }
    return { ok: true, value: items };
  },
  format: (v) => v.join(','),
};

/** `KEY=VALUE` pairs separated by commas or given one per flag. */
export const envPairs: ValueType<Record<string, string>> = {
  expected: 'KEY=VALUE pairs separated by commas',
  parse(raw) {
    const out: Record<string, string> = {};
    for (const item of raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const eq = item.indexOf('=');
      const key = eq === -1 ? '' : item.slice(0, eq).trim();
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return { ok: false, expected: `${this.expected}; "${item}" is not KEY=VALUE` };
      out[key] = item.slice(eq + 1);
    }
    return { ok: true, value: out };
  },
  format: (v) =>
    Object.entries(v)
      .map(([k, val]) => `${k}=${val}`)
      .join(','),
};

/** Environment variable names separated by spaces or commas (`AGENT_ENV="NPM_TOKEN GH_TOKEN"`). */
export const envNames: ValueType<string[]> = {
  expected: 'environment variable names separated by spaces or commas',
  parse(raw) {
    const names = raw.split(/[\s,]+/).filter(Boolean);
    for (const name of names) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return { ok: false, expected: `${this.expected}; "${name}" is not a variable name` };
    }
    return { ok: true, value: [...new Set(names)] };
  },
  format: (v) => v.join(' '),
};

/**
 * Splits a command line the way a shell would split words, honouring quotes,
 * so CLAUDE_CODE_CMD="npx @anthropic-ai/claude-code" works without a shell.
 */
export function splitCommandLine(raw: string): string[] | undefined {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < raw.length; i += 1) {
    const ch = raw[i] as string;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < raw.length) current += raw[++i];
      else current += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < raw.length) {
      current += raw[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) words.push(current);
  return words;
}

export const commandLine: ValueType<string[]> = {
  expected: 'a command, optionally with arguments (for example: claude, or npx @anthropic-ai/claude-code)',
  parse(raw) {
    const words = splitCommandLine(raw);
    if (words === undefined || words.length === 0) return { ok: false, expected: this.expected };
    return { ok: true, value: words };
  },
  format: (v) => v.map((w) => (/[\s"']/.test(w) ? JSON.stringify(w) : w)).join(' '),
};

/** Extra arguments added to an agent's command line: shell-like words, quotes honoured, none allowed. */
export const argumentList: ValueType<string[]> = {
  expected: 'arguments separated by spaces, quoted where they contain spaces (for example: --foo "a b")',
  parse(raw) {
    const words = splitCommandLine(raw);
    return words === undefined ? { ok: false, expected: this.expected } : { ok: true, value: words };
  },
  format: commandLine.format,
};

/** `--park-at` / `--stop-at`: the agent's warning or a used percentage, for some windows or all; '' = off. */
export const quotaThreshold: ValueType<QuotaThreshold | null> = {
  expected: QUOTA_THRESHOLD_EXPECTED,
  parse(raw) {
    const parsed = parseQuotaThreshold(raw);
    return parsed.ok ? parsed : { ok: false, expected: `${QUOTA_THRESHOLD_EXPECTED} (${parsed.problem})` };
  },
  format: formatQuotaThreshold,
};
