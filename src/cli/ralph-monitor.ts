import { runMonitorCommand, type MonitorOptions } from '../features/monitor/monitor-command.js';
import { systemClock } from '../infra/system-clock.js';
import { runMain } from './main.js';
import { quickMonitorArgs } from './ralph-monitor-quick-args.js';

/** The switches alone (`--once`, `--json`, `--no-color`) are read without the parser; anything else loads it. */
async function monitorArgs(argv: readonly string[]): Promise<MonitorOptions | undefined> {
  const quick = quickMonitorArgs(argv);
  if (quick) return quick;
  const { parseMonitorArgs } = await import('./ralph-monitor-args.js');
  return parseMonitorArgs(argv);
}

// Ctrl+C, kill, or the tmux pane closing all end the dashboard the same way:
// restore the cursor, say so, exit 0.
const stop = new AbortController();
const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const onSignal = (): void => stop.abort();
for (const name of signals) process.on(name, onSignal);
// A closed pipe or pty reports EPIPE/EIO asynchronously; the monitor stops on
// its own, and this keeps Node from turning the late event into a crash.
process.stdout.on('error', () => undefined);

await runMain(
  async (argv) => {
    const options = await monitorArgs(argv);
    if (!options) return 0;
    return runMonitorCommand(options, {
      stdout: process.stdout,
      stderr: process.stderr,
      // The clock alone: the default process runner would load child processes the dashboard never starts.
      clock: systemClock,
      signal: stop.signal,
      cwd: process.cwd(),
      env: process.env,
    });
  },
  { json: true },
);
for (const name of signals) process.off(name, onSignal);
