import { formatCountdown } from '../core/time-format.js';

export interface WaitCountdownOptions {
  /** Shown before the countdown: "Rate limit reached (calls: 100/100)". */
  label: string;
  until: number;
  /** When the wait starts. */
  now: number;
  /** A spinner with a live countdown on a terminal; otherwise one line a minute. */
  tty: boolean;
  write: (text: string) => void;
}

export interface WaitCountdown {
  /** The wait goes on: called about once a second with the current time. */
  tick(now: number): void;
  stop(): void;
}

/** Without a terminal: one line per interval, never a flood in CI logs. */
const PLAIN_LINE_EVERY_MS = 60_000;

/** Shows the time left of a wait the loop sits out; the loop decides when it ends. */
export function startWaitCountdown(options: WaitCountdownOptions): WaitCountdown {
  const left = (now: number): number => Math.max(0, (options.until - now) / 1000);
  const spinnerText = (now: number): string => `${options.label} — time until reset: ${formatCountdown(left(now))}`;
  let spinner: { text: string; stop(): void } | undefined;
  let stopped = false;
  let latest = options.now;
  let lastLine = options.now;
  if (options.tty) {
    // ora is loaded only for a wait on a terminal: it costs start-up time everywhere else.
    void import('ora').then(
      ({ default: ora }) => {
        if (!stopped) spinner = ora({ text: spinnerText(latest), stream: process.stderr }).start();
      },
      () => undefined,
    );
  } else {
    options.write(`${options.label} — waiting ${formatCountdown(left(options.now))} (until ${new Date(options.until).toLocaleTimeString()})\n`);
  }
  return {
    tick(now) {
      latest = now;
      if (options.tty) {
        if (spinner) spinner.text = spinnerText(now);
      } else if (now - lastLine >= PLAIN_LINE_EVERY_MS && now < options.until) {
        lastLine = now;
        options.write(`  … ${formatCountdown(left(now))} left\n`);
      }
    },
    stop() {
      stopped = true;
      spinner?.stop();
    },
  };
}
