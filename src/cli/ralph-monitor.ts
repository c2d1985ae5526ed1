import { runMonitorCommand } from '../features/monitor/monitor-command.js';
import { systemClock } from '../infra/system-clock.js';
import { runMain } from './main.js';

// Ctrl+C, kill, or the tmux pane closing all end the dashboard the same way:
// restore the cursor, say so, exit 0.
const stop = new AbortController();
const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const onSignal = (): void => stop.abort();
for (const name of signals) process.on(name, onSignal);
// A closed pipe or pty reports EPIPE/EIO asynchronously; the monitor stops on
// its own, and this keeps Node from turning the late event into a crash.
process.stdout.on('error', () => undefined);

await runMain((argv) =>
  runMonitorCommand(argv, { stdout: process.stdout, stderr: process.stderr, clock: systemClock, signal: stop.signal, cwd: process.cwd(), env: process.env }),
);
for (const name of signals) process.off(name, onSignal);
