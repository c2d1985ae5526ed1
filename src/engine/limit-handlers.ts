import type { CallOutcome } from '../core/call-outcome.js';
import { apiRetryDelayMs, type CallPermit } from '../core/rate-limiter.js';
import { formatDuration } from '../core/time-format.js';
import { waitEnded, type LoopSession, type Step } from './loop-session.js';
import { sitOut } from './waits.js';

/** The hourly call or token budget is spent: wait until enough calls leave the window. */
export async function waitForCallBudget(s: LoopSession, permit: Extract<CallPermit, { ok: false }>): Promise<Step> {
  const end = await sitOut(s.deps, s.run, { reason: 'rate_limit', until: permit.waitUntil, message: `Rate limit reached (${permit.reason})` }, () => s.setAction('rate_limited', 'waiting', `Rate limit reached (${permit.reason})`));
  return waitEnded(end);
}

/** A wait the previous run saved (Ctrl+C during a wait): finish it before calling again. */
export async function resumeSavedWait(s: LoopSession): Promise<Step> {
  const wait = s.run.rate.wait;
  if (!wait || wait.until <= s.now) return undefined;
  s.deps.logger.info('Resuming the wait saved by the previous run');
  return waitEnded(await sitOut(s.deps, s.run, wait, () => s.publish()));
}

/**
 * A Claude usage limit (5-hour, weekly, Extra Usage): wait until the reset time
 * Claude gave (plus jitter) or the default; on a terminal the user may stop
 * instead (exit 5). A reset after --max-runtime ends the run at once.
 */
export async function handleUsageLimit(s: LoopSession, outcome: Extract<CallOutcome, { kind: 'usage_limit' }>): Promise<Step> {
  const { config } = s;
  const { logger, notifier, ui } = s.deps;
  const jitter = 30_000 + Math.floor(Math.random() * 60_000);
  const until = outcome.resetAt !== undefined ? outcome.resetAt + jitter : s.now + config.usageLimitWaitMinutes * 60_000;
  const when = new Date(until).toLocaleString();
  logger.warn(`Claude usage limit reached: ${outcome.message}`);
  notifier.notify('usage_limit', `Claude usage limit reached; Ralph waits until ${when}`);
  s.setAction('api_limit', 'paused', outcome.resetAt !== undefined ? `Usage limit reached; resets at ${when}` : `Usage limit reached; waiting about ${config.usageLimitWaitMinutes} min`);
  if (config.maxRuntimeMinutes > 0 && until > s.run.startedAt + config.maxRuntimeMinutes * 60_000) {
    return { stop: 'usage_limit', message: `the limit resets at ${when}, after --max-runtime ends` };
  }
  if (ui.tty) {
    ui.write('\nA Claude API usage limit has been reached (5-hour plan limit, weekly limit or Extra Usage quota).\n');
    if ((await ui.ask(`Wait until ${when} or exit?`, ['wait', 'exit'] as const, 'wait', 30_000)) === 'exit') {
      s.deps.store.resetSession('api_limit_exit', s.run.loop, s.now);
      return { stop: 'usage_limit', message: 'exited at the usage-limit prompt' };
    }
  }
  const end = await sitOut(s.deps, s.run, { reason: 'usage_limit', until, message: 'Claude usage limit reached' }, () => s.setAction('api_limit', 'paused', `Waiting for the usage limit to reset (${when})`));
  return waitEnded(end);
}

/**
 * A transient API error (429, 529 overloaded): retry with growing
 * waits, each retry a counted call, then a clear stop (exit 5).
 */
export async function handleApiTransient(s: LoopSession, outcome: Extract<CallOutcome, { kind: 'api_transient' }>): Promise<Step> {
  const { config } = s;
  const { logger, store, ui } = s.deps;
  let attempts = (s.run.rate.apiRetry?.attempts ?? 0) + 1;
  if (attempts > config.apiRetryMax) {
    logger.error(`Retry limit exceeded (${config.apiRetryMax} attempts): ${outcome.message}`);
    const keepWaiting = ui.tty && (await ui.ask('The API keeps refusing requests. Continue waiting?', ['yes', 'no'] as const, 'no', 30_000)) === 'yes';
    if (!keepWaiting) {
      const { apiRetry: _done, ...rest } = s.run.rate;
      s.run.rate = rest;
      store.saveRate(s.run.rate);
      s.deps.notifier.notify('error', 'Ralph stopped: the API kept refusing requests');
      return { stop: 'api_rate_limit', message: outcome.message };
    }
    attempts = 1;
  }
  s.run.rate = { ...s.run.rate, apiRetry: { attempts, lastError: outcome.message } };
  store.saveRate(s.run.rate);
  const delay = apiRetryDelayMs(attempts, config.apiRetryWaitSeconds);
  // A 529 is the service being busy, not this user's rate limit: name it as it is.
  const what = outcome.status === 529 || /\boverloaded/i.test(outcome.message) ? 'API overloaded' : 'Rate limit detected';
  logger.warn(`${what}, attempt ${attempts}/${config.apiRetryMax}. Waiting ${formatDuration(delay / 1000)}... (${outcome.message})`);
  const end = await sitOut(s.deps, s.run, { reason: 'api_retry', until: s.now + delay, message: `API ${outcome.status ?? 'rate limit'} error, retry ${attempts}/${config.apiRetryMax}` }, () => s.setAction('api_retry', 'waiting'));
  return waitEnded(end);
}

/** A successful call ends a run of transient errors: the retry counter starts again at zero. */
export function clearApiRetries(s: LoopSession): void {
  if (!s.run.rate.apiRetry) return;
  const { apiRetry: _cleared, ...rest } = s.run.rate;
  s.run.rate = rest;
  s.deps.store.saveRate(s.run.rate);
}
