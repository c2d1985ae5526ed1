import { isoTimestamp } from '../core/time-format.js';
import type { WaitRecord } from '../core/rate-limiter.js';
import type { WaitEnd } from './loop-events.js';
import type { LoopRun, Step } from './loop-run.js';

const POLL_MS = 1000;

/**
 * A wait the loop must sit out (hourly rate limit, usage limit, API retry).
 * The wait is saved before it starts, so Ctrl+C leaves a state a restart
 * resumes, and it is visible in status.json and the monitor. Ctrl+C or a
 * `ralph --stop` from another terminal (polled every second) end it early.
 */
export async function sitOut(s: LoopRun, wait: WaitRecord, publish: () => void): Promise<WaitEnd> {
  const { clock, store } = s.deps;
  const run = s.state;
  run.rate = { ...run.rate, wait };
  store.saveRate(run.rate);
  run.waiting = { reason: wait.reason, until: isoTimestamp(wait.until), message: wait.message };
  run.message = wait.message;
  publish();
  s.emit({ type: 'wait.start', iteration: run.loop, wait, now: clock.now() });
  const end = await sleepUntil(s, wait);
  s.emit({ type: 'wait.end', iteration: run.loop, wait, end });
  if (end === 'done') {
    const { wait: _finished, ...rest } = run.rate;
    run.rate = rest;
    store.saveRate(run.rate);
    run.waiting = null;
    run.message = '';
  }
  return end;
}

async function sleepUntil(s: LoopRun, wait: WaitRecord): Promise<WaitEnd> {
  const { clock, store, interrupt } = s.deps;
  while (clock.now() < wait.until) {
    if (interrupt.aborted) return 'interrupted';
    if (store.stopRequested()) return 'stopped';
    try {
      await clock.sleep(Math.min(POLL_MS, wait.until - clock.now()), interrupt);
    } catch {
      return 'interrupted';
    }
    s.emit({ type: 'wait.tick', wait, now: clock.now() });
  }
  return interrupt.aborted ? 'interrupted' : 'done';
}

/** How a wait's end continues the loop: Ctrl+C and `ralph --stop` end it. */
export function waitEnded(end: WaitEnd): Step {
  if (end === 'interrupted') return { stop: 'interrupted' };
  if (end === 'stopped') return { stop: 'stop_requested' };
  return undefined;
}
