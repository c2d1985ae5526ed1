import type { WaitRecord } from '../core/rate-limiter.js';
import { formatDuration, isoTimestamp } from '../core/time-format.js';
import { waitWithCountdown, type WaitEnd } from '../ui/wait-countdown.js';
import type { LoopDeps } from './loop-deps.js';
import type { RunState } from './run-state.js';

/**
 * A wait the loop must sit out (hourly rate limit, usage limit, API retry).
 * The wait is saved before it starts, so Ctrl+C leaves a state a restart
 * resumes, and it is visible in status.json and the monitor.
 */
export async function sitOut(deps: LoopDeps, run: RunState, wait: WaitRecord, publish: () => void): Promise<WaitEnd> {
  const { clock, store, recorder, logger } = deps;
  run.rate = { ...run.rate, wait };
  store.saveRate(run.rate);
  run.waiting = { reason: wait.reason, until: isoTimestamp(wait.until), message: wait.message };
  run.message = wait.message;
  publish();
  recorder.record('wait.start', { iteration: run.loop, reason: wait.reason, until: isoTimestamp(wait.until), message: wait.message });
  logger.info(`${wait.message} — waiting ${formatDuration((wait.until - clock.now()) / 1000)} (until ${new Date(wait.until).toLocaleString()})`);
  const end = await waitWithCountdown({
    until: wait.until,
    label: wait.message,
    clock,
    signal: deps.interrupt,
    stopRequested: () => store.stopRequested(),
    tty: deps.ui.tty,
    write: (t) => deps.ui.write(t),
    ...(deps.ui.maxWaitMs !== undefined ? { maxWaitMs: deps.ui.maxWaitMs } : {}),
  });
  recorder.record('wait.end', { iteration: run.loop, reason: wait.reason, end });
  if (end === 'done') {
    const { wait: _finished, ...rest } = run.rate;
    run.rate = rest;
    store.saveRate(run.rate);
    run.waiting = null;
    run.message = '';
  }
  return end;
}
