import { formatCountdown } from '../core/time-format.js';
import type { Clock } from '../ports.js';

export type WaitEnd = 'done' | 'interrupted' | 'stopped';

export interface WaitOptions {
  until: number;
  /** Shown before the countdown: "Rate limit reached (calls: 100/100)". */
  label: string;
  clock: Clock;
  signal: AbortSignal;
  /** Polled once a second: a `ralph --stop` from another terminal ends the wait. */
  stopRequested: () => boolean;
  /** A spinner with a live countdown on a terminal; otherwise one line a minute. */
  tty: boolean;
  write: (text: string) => void;
  /** Test seam: no single wait lasts longer than this (RALPH_TEST_MAX_WAIT_MS). */
  maxWaitMs?: number;
}

/**
 * Waits until `until`, showing the time left. Ctrl+C (the signal) or a stop
 * request end the wait early; the caller has already saved the wait in state
 * so a restart resumes it.
 */
export async function waitWithCountdown(options: WaitOptions): Promise<WaitEnd> {
  const { clock } = options;
  const start = clock.now();
  const deadline = options.maxWaitMs !== undefined ? Math.min(options.until, start + options.maxWaitMs) : options.until;
  const left = (): number => Math.max(0, (options.until - clock.now()) / 1000);
  let spinner: { text: string; stop(): void; succeed(t: string): void } | undefined;
  if (options.tty) {
    const { default: ora } = await import('ora');
    spinner = ora({ text: `${options.label} — time until reset: ${formatCountdown(left())}`, stream: process.stderr }).start();
  } else {
    options.write(`${options.label} — waiting ${formatCountdown(left())} (until ${new Date(options.until).toLocaleTimeString()})\n`);
  }
  let lastLine = start;
  try {
    while (clock.now() < deadline) {
      if (options.signal.aborted) return 'interrupted';
      if (options.stopRequested()) return 'stopped';
      try {
        await clock.sleep(Math.min(1000, deadline - clock.now()), options.signal);
      } catch {
        return 'interrupted';
      }
      if (spinner) spinner.text = `${options.label} — time until reset: ${formatCountdown(left())}`;
      else if (clock.now() - lastLine >= 60_000 && clock.now() < deadline) {
        lastLine = clock.now();
        options.write(`  … ${formatCountdown(left())} left\n`);
      }
    }
    if (options.signal.aborted) return 'interrupted';
    // A wait shortened by the test seam counts as fully waited.
    if (clock.now() < options.until) clock.advance?.(options.until - clock.now());
    return 'done';
  } finally {
    spinner?.stop();
  }
}
