import type { Clock } from '../../../ports.js';
import type { MonitorSnapshot } from '../../../state/monitor-snapshot.js';
import { renderMonitor } from '../../../ui/render-monitor.js';

/** The parts of a terminal stream the monitor uses (process.stdout fits). */
export interface MonitorStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  on?(event: string, listener: (...args: unknown[]) => void): unknown;
  off?(event: string, listener: (...args: unknown[]) => void): unknown;
}

export interface MonitorDeps {
  stdout: MonitorStream;
  stderr: { write(chunk: string): unknown };
  clock: Clock;
  /** Aborted by the caller on SIGINT / SIGTERM / SIGHUP. */
  signal: AbortSignal;
  color: boolean;
  read: (projectDir: string, now: number) => MonitorSnapshot;
}

export interface MonitorRunOptions {
  projectDir: string;
  intervalSec: number;
}

const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
const HOME = '\u001b[H';
const CLEAR_SCREEN = '\u001b[2J';
const CLEAR_EOL = '\u001b[K';
const CLEAR_EOS = '\u001b[J';

/**
 * Redraws the dashboard every interval until the signal aborts. On a
 * terminal each frame overwrites the last in place (cursor home, every line
 * followed by clear-to-end-of-line, clear-to-end-of-screen at the end) so
 * nothing flickers; the screen is fully cleared only at start and after a
 * resize. When writing fails (the pty went away) it stops quietly.
 */
export async function runMonitor(options: MonitorRunOptions, deps: MonitorDeps): Promise<number> {
  const { stdout, clock } = deps;
  const tty = stdout.isTTY === true;
  const stop = new AbortController();
  let wake = new AbortController();
  let broken = false;
  let clearNext = true;

  const onError = (): void => {
    broken = true;
    stop.abort();
  };
  const onResize = (): void => {
    clearNext = true;
    wake.abort();
  };
  const onAbort = (): void => stop.abort();
  deps.signal.addEventListener('abort', onAbort, { once: true });
  if (deps.signal.aborted) stop.abort();
  stdout.on?.('error', onError);
  if (tty) stdout.on?.('resize', onResize);

  const write = (text: string): void => {
    if (broken) return;
    try {
      stdout.write(text);
    } catch {
      onError();
    }
  };

  try {
    if (tty) write(HIDE_CURSOR);
    while (!stop.signal.aborted) {
      const now = clock.now();
      const height = tty && stdout.rows !== undefined && stdout.rows > 0 ? stdout.rows : undefined;
      const frame = renderMonitor(deps.read(options.projectDir, now), {
        width: stdout.columns && stdout.columns > 0 ? stdout.columns : 80,
        color: deps.color,
        now,
        intervalSec: options.intervalSec,
        ...(height !== undefined ? { height } : {}),
      });
      if (tty) {
        const lines = frame.replace(/\n$/, '').split('\n');
        write(`${clearNext ? CLEAR_SCREEN : ''}${HOME}${lines.join(`${CLEAR_EOL}\n`)}${CLEAR_EOL}${CLEAR_EOS}`);
        clearNext = false;
      } else {
        write(`${frame}\n`);
      }
      if (broken) break;
      try {
        await clock.sleep(options.intervalSec * 1000, AbortSignal.any([stop.signal, wake.signal]));
      } catch {
        // Woken early: stopped, or the terminal was resized.
      }
      if (wake.signal.aborted) wake = new AbortController();
    }
  } finally {
    deps.signal.removeEventListener('abort', onAbort);
    stdout.off?.('resize', onResize);
    if (!broken) {
      if (tty) write(`${SHOW_CURSOR}\n`);
      try {
        deps.stderr.write('Monitor stopped.\n');
      } catch {
        // stderr is gone too; nothing left to tell.
      }
    }
    // Keep swallowing late EPIPE/EIO events: an unhandled 'error' would crash the process.
  }
  return 0;
}
