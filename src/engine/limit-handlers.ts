import type { AgentOutcome } from '../agent-result.js';
import { apiRetryDelayMs, type CallPermit } from '../core/rate-limiter.js';
import { describeTransientCause, transientCause } from '../core/transient-api-error.js';
import type { LoopRun, Step } from './loop-run.js';
import { sitOut, waitEnded } from './waits.js';

/** Claude gives the reset time to the minute: starting 30-90 s later keeps many loops from all calling at once. */
const JITTER_MIN_MS = 30_000;
const JITTER_SPAN_MS = 60_000;

/** The hourly call or token budget is spent: wait until enough calls leave the window. */
export async function waitForCallBudget(s: LoopRun, permit: Extract<CallPermit, { ok: false }>): Promise<Step> {
  const end = await sitOut(s, { reason: 'rate_limit', until: permit.waitUntil, message: `Rate limit reached (${permit.reason})` }, () =>
    s.setAction('rate_limited', 'waiting', `Rate limit reached (${permit.reason})`),
  );
  return waitEnded(end);
}

/** A wait the previous run saved (Ctrl+C during a wait): finish it before calling again. */
export async function resumeSavedWait(s: LoopRun): Promise<Step> {
  const wait = s.state.rate.wait;
  if (!wait || wait.until <= s.now) return undefined;
  s.notice({ code: 'wait.resumed' });
  return waitEnded(await sitOut(s, wait, () => s.publish()));
}

/**
 * A Claude usage limit (5-hour, weekly, Extra Usage): wait until the reset time
 * Claude gave (plus jitter) or the default; on a terminal the user may stop
 * instead (exit 5). A reset after --max-runtime ends the run at once.
 */
export async function handleUsageLimit(s: LoopRun, outcome: Extract<AgentOutcome, { kind: 'usage_limit' }>): Promise<Step> {
  const { config } = s;
  const { questions } = s.deps;
  const jitter = JITTER_MIN_MS + Math.floor(s.deps.random.next() * JITTER_SPAN_MS);
  const until = outcome.resetAt !== undefined ? outcome.resetAt + jitter : s.now + config.usageLimitWaitMinutes * 60_000;
  const when = new Date(until).toLocaleString();
  s.emit({ type: 'limit.usage', message: outcome.message, until });
  s.setAction(
    'api_limit',
    'paused',
    outcome.resetAt !== undefined ? `Usage limit reached; resets at ${when}` : `Usage limit reached; waiting about ${config.usageLimitWaitMinutes} min`,
  );
  if (config.maxRuntimeMinutes > 0 && until > s.state.startedAt + config.maxRuntimeMinutes * 60_000) {
    return { stop: 'usage_limit', message: `the limit resets at ${when}, after --max-runtime ends` };
  }
  if (questions.tty) {
    const answer = await questions.ask({
      preface: `\nThe ${s.deps.backend.displayName} usage limit has been reached (a plan, weekly or quota limit).\n`,
      question: `Wait until ${when} or exit?`,
      choices: ['wait', 'exit'] as const,
      defaultChoice: 'wait',
      timeoutMs: 30_000,
    });
    if (answer === 'exit') {
      s.deps.store.resetSession('api_limit_exit', s.state.loop, s.now);
      return { stop: 'usage_limit', message: 'exited at the usage-limit prompt' };
    }
  }
  const end = await sitOut(s, { reason: 'usage_limit', until, message: `${s.deps.backend.displayName} usage limit reached` }, () =>
    s.setAction('api_limit', 'paused', `Waiting for the usage limit to reset (${when})`),
  );
  return waitEnded(end);
}

/**
 * A transient API error (429, 529 overloaded, a 5xx server error): retry with growing
 * waits, each retry a counted call, then a clear stop (exit 5).
 */
export async function handleApiTransient(s: LoopRun, outcome: Extract<AgentOutcome, { kind: 'api_transient' }>): Promise<Step> {
  const { config } = s;
  const { store, questions } = s.deps;
  let attempts = (s.state.rate.apiRetry?.attempts ?? 0) + 1;
  if (attempts > config.apiRetryMax) {
    s.notice({ code: 'api_retry.exhausted', maxAttempts: config.apiRetryMax, message: outcome.message });
    const keepWaiting =
      questions.tty &&
      (await questions.ask({
        question: 'The API keeps refusing requests. Continue waiting?',
        choices: ['yes', 'no'] as const,
        defaultChoice: 'no',
        timeoutMs: 30_000,
      })) === 'yes';
    if (!keepWaiting) {
      const { apiRetry: _done, ...rest } = s.state.rate;
      s.state.rate = rest;
      store.saveRate(s.state.rate);
      s.emit({ type: 'api_retry.gave_up', message: outcome.message });
      return { stop: 'api_rate_limit', message: outcome.message };
    }
    attempts = 1;
  }
  s.state.rate = { ...s.state.rate, apiRetry: { attempts, lastError: outcome.message } };
  store.saveRate(s.state.rate);
  const delay = apiRetryDelayMs(attempts, config.apiRetryWaitSeconds);
  // A 529 or a 500 is the service's trouble, not this user's rate limit: each is named as it is.
  const cause = transientCause(outcome.status, outcome.message);
  s.notice({
    code: 'api_retry.waiting',
    cause,
    status: outcome.status,
    attempt: attempts,
    maxAttempts: config.apiRetryMax,
    delayMs: delay,
    message: outcome.message,
  });
  const end = await sitOut(
    s,
    { reason: 'api_retry', until: s.now + delay, message: `${describeTransientCause(cause, outcome.status)}, retry ${attempts}/${config.apiRetryMax}` },
    () => s.setAction('api_retry', 'waiting'),
  );
  return waitEnded(end);
}

/** A successful call ends a run of transient errors: the retry counter starts again at zero. */
export function clearApiRetries(s: LoopRun): void {
  if (!s.state.rate.apiRetry) return;
  const { apiRetry: _cleared, ...rest } = s.state.rate;
  s.state.rate = rest;
  s.deps.store.saveRate(s.state.rate);
}
