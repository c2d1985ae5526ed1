import { DEFAULT_INTERVAL_SEC, runMonitorCommand, type MonitorOptions } from '../features/observe/monitor/monitor-command.js';
import type { MonitorStream } from '../features/observe/monitor/run-monitor.js';
import { systemClock } from '../infra/system-clock.js';
import { stdoutIsTerminal } from './direct-stdout.js';
import { runMain } from './main.js';
import { printRedacted } from './redacted-output.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * One frame or the snapshot to a pipe or a file goes straight to file
 * descriptor 1: creating `process.stdout` for it would load Node's net and
 * stream modules, which cost more than the frame. A terminal still gets the
 * stream, whose width the frame is drawn to.
 */
const PIPED_STDOUT: MonitorStream = { write: (chunk) => printRedacted(chunk), isTTY: false };

/** The process of ralph-monitor, once `readOptions` has read its argv (undefined: help or the version was printed). */
export function runMonitorProcess(readOptions: (argv: readonly string[]) => Promise<MonitorOptions | undefined>): Promise<void> {
  // Ctrl+C, kill, or the tmux pane closing all end the dashboard the same way:
  // restore the cursor, say so, exit 0.
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  return runMain(
    async (argv) => {
      const options = await readOptions(argv);
      if (!options) return 0;
      const frameOnly = options.once || options.json;
      if (!frameOnly) for (const name of SIGNALS) process.on(name, onSignal);
      const piped = frameOnly && !stdoutIsTerminal();
      // A closed pipe or pty reports EPIPE/EIO asynchronously; the monitor stops on
      // its own, and this keeps Node from turning the late event into a crash.
      if (!piped) process.stdout.on('error', () => undefined);
      return runMonitorCommand(options, {
        stdout: piped ? PIPED_STDOUT : process.stdout,
        stderr: { write: (chunk) => process.stderr.write(chunk) },
        // The clock alone: the default process runner would load child processes the dashboard never starts.
        clock: systemClock,
        signal: stop.signal,
        cwd: process.cwd(),
        env: process.env,
      });
    },
    { json: true },
  ).finally(() => {
    for (const name of SIGNALS) process.off(name, onSignal);
  });
}

/** One frame or one JSON document of `ralph-monitor` with its switches alone (the fast path's answer). */
export function answerMonitorFrame(switches: Pick<MonitorOptions, 'once' | 'json' | 'color'>): Promise<void> {
  return runMonitorProcess(async () => ({ intervalSec: DEFAULT_INTERVAL_SEC, ...switches }));
}
