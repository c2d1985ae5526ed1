import type { AgentOutcome } from '../../agent-result.js';
import { nextMidnight } from '../../core/reset-time.js';
import { unexitedOutcome, type CliRun } from '../cli-agent/cli-run.js';
import type { GeminiOutput } from './gemini-stream.js';

/** One run of the Gemini CLI: how the process ended and the digest of what it printed. */
export type GeminiRun = CliRun<GeminiOutput>;

/** Gemini CLI's own exit codes (its FatalError classes). */
const EXIT_NO_AUTH = 41;
const EXIT_BAD_INPUT = 42;
const EXIT_UNTRUSTED = 55;

const ADVICE = {
  key: "Gemini CLI's credentials were rejected. Check the API key it uses (GEMINI_API_KEY, or the key in ~/.gemini/.env), or log in again by running `gemini`; then run ralph again.",
  noAuth:
    'Gemini CLI has no way to log in. Set GEMINI_API_KEY, or run `gemini` once and choose how to log in (it is saved in ~/.gemini/settings.json); then run ralph again.',
  credits:
    'The Google project or account cannot pay for Gemini: its billing is off or its credit is used up, which no wait lifts. Enable billing or add credits (Google Cloud console, Billing; or AI Studio), or switch to a key or plan that has them; then run ralph again.',
};

const BAD_KEY = /API_KEY_INVALID|API key not valid|API key expired|API_KEY_EXPIRED|UNAUTHENTICATED|invalid authentication credentials/i;
const NO_CREDITS = /INSUFFICIENT_G1_CREDITS_BALANCE|billing (?:is )?(?:not enabled|disabled)|BILLING_DISABLED|requires billing to be enabled/i;
/**
 * A per-day quota. Gemini CLI prints its own words for it and leaves the API's RetryInfo out
 * (`details: [ [Object] ]`), so when the API's message names no delay either, the reset is the
 * one Google documents for daily quotas: midnight Pacific time.
 */
const DAILY_QUOTA = /exhausted your daily quota|PerDay|\bDaily\b/;
const DAILY_QUOTA_ZONE = 'America/Los_Angeles';
/** What Gemini CLI itself judges a limit only time lifts (its TerminalQuotaError). */
const USAGE_LIMIT = /exhausted your daily quota|TerminalQuotaError|exhausted your capacity|MODEL_CAPACITY_EXHAUSTED|QUOTA_EXHAUSTED|PerDay/i;
const TRANSIENT_STATUS = new Set([408, 429, 499, 500, 502, 503, 504]);
/** gRPC status names are upper case: "model unavailable" in prose is no such status. */
const TRANSIENT_TEXT = [/\bRESOURCE_EXHAUSTED\b|\bUNAVAILABLE\b|RetryableQuotaError/, /\boverloaded\b|fetch failed|ECONNRESET|ECONNREFUSED/i];
/** stderr lines that say nothing about a failure: stack frames and the CLI's start-up notices. */
const STDERR_NOISE = /^\s+at |^\s*[{}]\s*$|256-color support|YOLO mode is enabled|Ripgrep is not available/;

/** The HTTP status of the API error: in the error's JSON, else the exit code (Gemini exits with the status mod 256). */
export function geminiApiStatus(message: string | undefined, exitCode: number | undefined): number | undefined {
  const code = message === undefined ? undefined : /"code"\s*:\s*(\d{3})\b/.exec(message)?.[1];
  if (code !== undefined) return Number(code);
  if (exitCode !== undefined && exitCode >= 144 && exitCode <= 255) return exitCode + 256;
  return undefined;
}

/** "[API Error: {…"message":"API key not valid."…}]" → "API key not valid." (the CLI's own words otherwise). */
export function readableGeminiError(message: string): string {
  const inner = /"message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(message)?.[1];
  if (inner !== undefined) {
    try {
      const parsed: unknown = JSON.parse(`"${inner}"`);
      return typeof parsed === 'string' ? parsed : inner;
    } catch {
      return inner;
    }
  }
  return message
    .replace(/^\[API Error:\s*/, '')
    .replace(/\]\s*$/m, '')
    .trim();
}

/** A Go-style duration as the API writes it: "13h5m2.5s", "1.5s", "500ms", "47102s". */
const DURATION = String.raw`(\d+h)?(\d+m(?!s))?(?:(\d+(?:\.\d+)?)s|(\d+(?:\.\d+)?)ms)?`;
const RETRY_SAID = [new RegExp(`Please retry in ${DURATION}`), new RegExp(`retryDelay"?\\s*:\\s*"?${DURATION}`)];

/** When the API said to come back ("Please retry in 13h5m2.5s", a retryDelay of "47102s"). */
export function geminiRetryAt(text: string, nowMs: number): number | undefined {
  for (const pattern of RETRY_SAID) {
    const m = pattern.exec(text);
    if (!m) continue;
    const [, h, min, s, ms] = m;
    const wait = parseInt(h ?? '0', 10) * 3_600_000 + parseInt(min ?? '0', 10) * 60_000 + Number(s ?? 0) * 1000 + Number(ms ?? 0);
    if (Number.isFinite(wait) && wait > 0) return nowMs + Math.round(wait);
  }
  return undefined;
}

function meaningfulStderr(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !STDERR_NOISE.test(l));
}

function failureMessage(run: GeminiRun): string {
  const o = run.output;
  const stderr = meaningfulStderr(run.stderrTail).slice(0, 3).join('\n');
  const candidates = [o.errorMessage ? readableGeminiError(o.errorMessage) : '', o.errors[0] ?? '', stderr, o.otherText.trim(), run.failure ?? ''];
  const message = candidates.find((c) => c.trim().length > 0) ?? '';
  const exit = run.exitCode !== undefined ? `exit code ${run.exitCode}` : run.signal ? `killed by ${run.signal}` : 'no exit code';
  return message ? `${message.slice(0, 500)} (${exit})` : `Gemini CLI failed (${exit}) without output`;
}

/**
 * What one Gemini CLI call amounted to. Gemini reports a failed call as a result event with
 * status "error" and exits with its own code (41 no login, 42 bad input such as an unknown
 * session, 55 untrusted folder) or the API's HTTP status mod 256 (400 → 144, 429 → 173, 500 →
 * 244). It retries 429s and 5xx itself first (settings.json general.maxAttempts), so what
 * reaches Ralph has outlasted those retries.
 */
export function classifyGeminiCall(run: GeminiRun, nowMs: number): AgentOutcome {
  const unexited = unexitedOutcome(run, 'the agent');
  if (unexited) return unexited;
  const o = run.output;
  if (run.exitCode === 0 && o.resultStatus !== 'error') return { kind: 'success' };

  const text = [o.errorMessage ?? '', ...o.errors, run.stderrTail, o.otherText].join('\n');
  const message = failureMessage(run);
  if (run.exitCode === EXIT_NO_AUTH) return { kind: 'unrecoverable', message, advice: ADVICE.noAuth, refusedCredentials: true };
  if (run.exitCode === EXIT_UNTRUSTED) return { kind: 'fatal', message };
  const status = geminiApiStatus(o.errorMessage, run.exitCode);
  if (NO_CREDITS.test(text)) return { kind: 'unrecoverable', message, advice: ADVICE.credits };
  if (status === 401 || BAD_KEY.test(text)) return { kind: 'unrecoverable', message, advice: ADVICE.key, refusedCredentials: true };
  if (USAGE_LIMIT.test(text)) {
    const outcome: AgentOutcome = { kind: 'usage_limit', message: o.errorMessage ? readableGeminiError(o.errorMessage).slice(0, 300) : message };
    const resetAt = geminiRetryAt(text, nowMs) ?? (DAILY_QUOTA.test(text) ? nextMidnight(nowMs, DAILY_QUOTA_ZONE) : undefined);
    if (resetAt !== undefined) outcome.resetAt = resetAt;
    return outcome;
  }
  if ((status !== undefined && TRANSIENT_STATUS.has(status)) || TRANSIENT_TEXT.some((pattern) => pattern.test(text))) {
    const outcome: AgentOutcome = { kind: 'api_transient', message };
    if (status !== undefined) outcome.status = status;
    return outcome;
  }
  const sessionLost = run.exitCode === EXIT_BAD_INPUT && /Error resuming session|Invalid session identifier/i.test(text);
  return { kind: 'failed', message, resetSession: sessionLost };
}
