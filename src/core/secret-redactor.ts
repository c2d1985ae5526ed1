import { isHarmlessName, isSecretName, judgeValue } from './secret-env.js';

/**
 * Replaces the values of the user's secrets with `[REDACTED:NAME]` in text
 * Ralph is about to write or print. It works on known values, not on guesses:
 * whatever the agent or the verify command echoes, a status file or a log line
 * never carries a credential the user's environment holds.
 */
export interface Redactor {
  redact(text: string): string;
  /** Length of the longest value looked for (how much a stream must hold back). */
  readonly longest: number;
  /** Every form looked for, as found in the text: `redact` changes a text only if one occurs in it. */
  readonly forms: readonly string[];
}

export interface SecretValue {
  name: string;
  value: string;
}

/**
 * Shorter values are not looked for: replacing every `true`, `1` or `dev` in
 * every log would garble the logs without protecting anything real.
 */
export const MIN_REDACTED_LENGTH = 6;

export const NO_REDACTION: Redactor = { redact: (text) => text, longest: 0, forms: [] };

/** The credentials an environment holds: secret-named values, and secrets found inside other values. */
export function collectSecretValues(env: Readonly<Record<string, string | undefined>>, extra: Readonly<Record<string, string>> = {}): SecretValue[] {
  const found: SecretValue[] = [];
  const consider = (name: string, value: string): void => {
    if (isSecretName(name)) {
      found.push({ name, value });
      return;
    }
    const verdict = judgeValue(value, { randomRuns: !isHarmlessName(name) });
    if (verdict.kind === 'secret') found.push({ name, value });
    else if (verdict.kind === 'stripped') for (const part of verdict.removed) found.push({ name, value: part });
  };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) consider(name, value);
  // Values the user gave on the command line for the verify command (`--verify-env NPM_TOKEN=…`).
  for (const [name, value] of Object.entries(extra)) consider(name, value);
  return found;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A redactor for `secrets`. Each value is also looked for as it appears inside
 * a JSON string (quotes and backslashes escaped), since most of what Ralph
 * writes is JSON. `encode` maps a value to the form the text is in (bytes read
 * as latin1, for logs that are redacted as raw bytes).
 */
export function createRedactor(secrets: readonly SecretValue[], encode: (value: string) => string = (v) => v): Redactor {
  const nameOf = new Map<string, string>();
  for (const { name, value } of secrets) {
    if (value.length < MIN_REDACTED_LENGTH) continue;
    for (const form of [value, JSON.stringify(value).slice(1, -1)]) {
      const encoded = encode(form);
      if (!nameOf.has(encoded)) nameOf.set(encoded, name);
    }
  }
  if (nameOf.size === 0) return NO_REDACTION;
  // Longest first, so a value that contains another is replaced whole.
  const forms = [...nameOf.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'g');
  return {
    longest: forms[0]?.length ?? 0,
    forms,
    redact: (text) => (text.length === 0 ? text : text.replace(pattern, (match) => encode(`[REDACTED:${nameOf.get(match) ?? 'secret'}]`))),
  };
}

/**
 * Redacts a text that arrives in pieces: a value split across two pieces is
 * still found, because the last `longest - 1` characters wait for the next
 * piece (or for `end`) before they are let out.
 */
export class StreamRedactor {
  private held = '';

  constructor(private readonly redactor: Redactor) {}

  write(piece: string): string {
    if (this.redactor.longest === 0) return piece;
    const text = this.redactor.redact(this.held + piece);
    const keep = Math.min(text.length, this.redactor.longest - 1);
    this.held = text.slice(text.length - keep);
    return text.slice(0, text.length - keep);
  }

  end(): string {
    const rest = this.redactor.redact(this.held);
    this.held = '';
    return rest;
  }
}
