import type { AgentOutcome } from '../../agent-result.js';
import { parseResetTime } from '../../core/reset-time.js';
import { digestText } from '../../core/text-digest.js';
import { isObject, str } from '../claude/json-fields.js';
import { unexitedOutcome, type CliRun } from '../cli-agent/cli-run.js';
import type { CodexStream } from './codex-stream.js';

/** One run of the Codex CLI: how the process ended and what it printed. */
export type CodexRun = CliRun<CodexStream>;

/** Codex's own messages (0.169), each of which decides what Ralph does next. */
const USAGE_LIMIT = /hit your usage limit/i;
const QUOTA = /\bQuota exceeded\b|insufficient_quota|To use Codex with your ChatGPT plan, upgrade/i;
const AUTH =
  /\b401\b|Unauthorized|Incorrect API key|invalid[_ ]api[_ ]key|Missing environment variable: `?\w*API_KEY|not logged in|log ?in again|refresh token|token (?:has )?expired/i;
const CONTEXT_WINDOW = /ran out of room in the model's context window|context[_ ]length[_ ]exceeded|context window/i;
const TRANSIENT =
  /exceeded retry limit|\b(?:429|5\d\d)\b|high demand|stream disconnected|Too Many Requests|rate limit|overloaded|timed? ?out|connection (?:refused|reset|closed)/i;
const NO_MODEL = /model .* does not exist or you do not have access to it|does not have access to model/i;
const STATUS = /(?:unexpected status|last status:?)\s*(\d{3})\b/i;
const UNKNOWN_SESSION = /no (?:rollout|session|thread) found|could not find (?:a )?(?:session|thread|rollout)/i;

const QUOTA_ADVICE =
  'The OpenAI account has no quota left for this model, or the plan does not include it. Add credits or raise the limits of the account (platform.openai.com, Billing), or log Codex in with a plan that includes it (`codex login`); then run ralph again.';
const AUTH_ADVICE =
  'The Codex CLI was refused its credentials. Log in again with `codex login`, or set the API key it uses (OPENAI_API_KEY, or the env_key of its model provider in ~/.codex/config.toml); then run ralph again.';

const FORBIDDEN_ADVICE =
  'The API refused the Codex CLI this model or access. Check CODEX_MODEL, and that the account or project of its credentials may use that model from where you are; then run ralph again.';

/** The message that explains a failed run: the turn's failure, else the last error, else stderr. */
export function codexFailureText(run: CodexRun): string {
  const o = run.output.output;
  const stderr = run.stderrTail.trim().split('\n').filter(isStderrMessage).slice(-3).join('\n');
  const noEvents = o.events === 0 ? digestText(run.output.raw).trim().split('\n').slice(-3).join('\n') : '';
  const text = [o.turnFailed, o.errors.at(-1), stderr, noEvents, run.failure].find((m) => m !== undefined && m.trim() !== '')?.trim() ?? '';
  return apiErrorMessage(text) ?? text;
}

/** Codex passes some API errors on as the body the API sent (`{"error":{"message":…}}`): its message is what explains them. */
function apiErrorMessage(text: string): string | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const body: unknown = JSON.parse(text);
    const error = isObject(body) && isObject(body['error']) ? body['error'] : undefined;
    return error ? str(error['message']) : undefined;
  } catch {
    return undefined;
  }
}

/** A stderr line that may explain a failure: not blank, and none of the notices every run prints. */
function isStderrMessage(line: string): boolean {
  return line.trim() !== '' && !/^Reading additional input from stdin|^WARNING: proceeding, even though we could not create PATH aliases/.test(line);
}

function failureMessage(run: CodexRun, text: string): string {
  const exit = run.exitCode !== undefined ? `exit code ${run.exitCode}` : run.signal ? `killed by ${run.signal}` : 'no exit code';
  return text ? `${text.slice(0, 500)} (${exit})` : `Codex CLI failed (${exit}) without output`;
}

/**
 * What one Codex call amounted to. A turn that completed is a success whatever errors Codex
 * reported on the way (its retries); a failed turn or a non-zero exit is read from Codex's own
 * message. A usage limit's reset time is read from "try again at 4:39 PM" (the CLI's local time,
 * on this machine); the zone is asked for only then.
 */
export function classifyCodexCall(run: CodexRun, nowMs: number, defaultZone: () => string): AgentOutcome {
  const unexited = unexitedOutcome(run, 'the Codex CLI');
  if (unexited) return unexited;
  const o = run.output.output;
  if (run.exitCode === 0 && o.turnCompleted && o.turnFailed === undefined) return { kind: 'success' };

  const text = codexFailureText(run);
  const status = codexApiStatus(text);
  if (USAGE_LIMIT.test(text)) {
    const outcome: AgentOutcome = { kind: 'usage_limit', message: text.slice(0, 300) };
    const resetAt = readCodexResetTime(text, nowMs, defaultZone);
    if (resetAt !== undefined) outcome.resetAt = resetAt;
    return outcome;
  }
  if (QUOTA.test(text)) return { kind: 'unrecoverable', message: text.slice(0, 300), advice: QUOTA_ADVICE };
  if (status === 401 || (status === undefined && AUTH.test(text)))
    return { kind: 'unrecoverable', message: text.slice(0, 300), advice: AUTH_ADVICE, refusedCredentials: true };
  if (status === 403 || NO_MODEL.test(text)) return { kind: 'unrecoverable', message: text.slice(0, 300), advice: FORBIDDEN_ADVICE };
  if (CONTEXT_WINDOW.test(text)) return { kind: 'failed', message: failureMessage(run, text), resetSession: true };
  if ((status !== undefined && (status === 429 || status >= 500)) || (status === undefined && TRANSIENT.test(text))) {
    const outcome: AgentOutcome = { kind: 'api_transient', message: failureMessage(run, text) };
    if (status !== undefined) outcome.status = status;
    return outcome;
  }
  return { kind: 'failed', message: failureMessage(run, text), resetSession: UNKNOWN_SESSION.test(text) };
}

/** The HTTP status in Codex's error text ("unexpected status 401 …", "last status: 429 …"). */
export function codexApiStatus(text: string): number | undefined {
  const m = STATUS.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** "try again at 4:39 PM." or "try again at Nov 27th, 2026 5:20 PM." as epoch ms. */
export function readCodexResetTime(text: string, nowMs: number, defaultZone: () => string): number | undefined {
  const m = /try again at ([^\n]*?)\.?[ \t]*(?:\n|$)/i.exec(text);
  if (!m) return undefined;
  // The year is left out: the reader takes the next such date, and "2026 5:20" would read as 20:26.
  const when = (m[1] as string).replace(/,?\s+\d{4}\b/, '');
  return parseResetTime(`resets ${when}`, nowMs, defaultZone());
}
