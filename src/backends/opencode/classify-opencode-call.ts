import type { AgentOutcome } from '../../agent-result.js';
import { digestText } from '../../core/text-digest.js';
import { unexitedOutcome, type CliRun } from '../cli-agent/cli-run.js';
import type { OpencodeError, OpencodeOutput } from './opencode-output.js';
import { resetTimeFromBody, resetTimeFromHeaders } from './opencode-reset-time.js';

/** One run of the OpenCode CLI: how the process ended and what it printed. */
export type OpencodeRun = CliRun<OpencodeOutput>;

const AUTH_ADVICE =
  'OpenCode was refused by the model provider: the API key or login it uses is missing, wrong or expired. Check the key of the provider in OpenCode (`opencode auth login`, or the provider key in opencode.json or its environment variable), then run ralph again.';
const AUTH_TEXT = /\binvalid[ _-]api[ _-]key\b|\bincorrect api key\b|\bauthentication\b|\bunauthori[sz]ed\b|\bapi key not valid\b/i;
const BILLING_ADVICE =
  'The model provider says the account has no credit or quota left (billing), which no wait lifts. Add credits or raise the limits of the account at the provider (or give OpenCode a key or plan that has them), then run ralph again.';
/**
 * The account cannot pay: OpenAI's `insufficient_quota`, Anthropic's "credit balance is too
 * low", Google's disabled billing or empty credits, HTTP 402. Not a window that resets.
 */
const BILLING_TEXT =
  /\binsufficient_quota\b|\bcredit balance is too low\b|\bINSUFFICIENT_G1_CREDITS_BALANCE\b|\bBILLING_DISABLED\b|\bbilling (?:is )?(?:not enabled|disabled)\b|\bpayment required\b|\bout of credits\b/i;
/** A limit of a plan or quota window, which lifts when it resets. */
const LIMIT_TEXT = /\bquota\b|\busage limit\b|\busage_limit_reached\b/i;
const TRANSIENT_TEXT = /\boverloaded\b|\brate[ _-]?limit|\btoo many requests\b|\bunavailable\b|\btimed? ?out\b/i;
const SESSION_BROKEN = /\bsession\b.*\bnot found\b|\bNotFoundError\b|context[ _-]length|\btoo long\b/i;

// eslint-disable-next-line no-control-regex -- the colour codes OpenCode prints on stderr
const ANSI = /\x1b\[[0-9;]*m/g;

function exitOf(run: OpencodeRun): string {
  return run.exitCode !== undefined ? `exit code ${run.exitCode}` : run.signal ? `killed by ${run.signal}` : 'no exit code';
}

function classifyError(error: OpencodeError, run: OpencodeRun, nowMs: number): AgentOutcome {
  const text = `${error.name} ${error.message} ${error.body ?? ''}`;
  const message = error.message.slice(0, 500);
  if (error.status === 401 || error.status === 403 || error.name === 'ProviderAuthError' || AUTH_TEXT.test(text)) {
    return { kind: 'unrecoverable', message, advice: AUTH_ADVICE, refusedCredentials: true };
  }
  if (error.status === 402 || BILLING_TEXT.test(text)) return { kind: 'unrecoverable', message, advice: BILLING_ADVICE };
  if ((error.status === 429 || error.status === undefined) && LIMIT_TEXT.test(text)) {
    const resetAt = resetTimeFromBody(error.body, nowMs) ?? resetTimeFromHeaders(error.headers, nowMs);
    return resetAt === undefined ? { kind: 'usage_limit', message } : { kind: 'usage_limit', message, resetAt };
  }
  // Without a status only the words tell; with one, a 4xx other than 429 is the request's fault.
  if (error.status === 429 || (error.status !== undefined && error.status >= 500) || (error.status === undefined && TRANSIENT_TEXT.test(text))) {
    return error.status === undefined ? { kind: 'api_transient', message } : { kind: 'api_transient', status: error.status, message };
  }
  return { kind: 'failed', message: `${message} (${exitOf(run)})`, resetSession: SESSION_BROKEN.test(text) };
}

/**
 * What one OpenCode call amounted to. OpenCode retries a rate-limited or failing API itself
 * (honouring retry-after) before it gives up with an `error` event, so an error that reaches
 * Ralph has already outlasted those retries.
 */
export function classifyOpencodeCall(run: OpencodeRun, nowMs: number): AgentOutcome {
  const unexited = unexitedOutcome(run, 'OpenCode');
  if (unexited) return unexited;
  const o = run.output;
  if (o.error) return classifyError(o.error, run, nowMs);
  if (run.exitCode === 0) return { kind: 'success' };
  // A session OpenCode no longer has ("Error: Session not found", on stderr) cannot be resumed.
  const stderr = run.stderrTail.replace(ANSI, '').trim().split('\n').slice(-3).join('\n');
  const said = [stderr, digestText(o.text).trim().split('\n').slice(-3).join('\n')].find((t) => t !== '');
  const message = said ? `${said.slice(0, 500)} (${exitOf(run)})` : `OpenCode failed (${exitOf(run)}) without output`;
  return { kind: 'failed', message, resetSession: SESSION_BROKEN.test(stderr) };
}
