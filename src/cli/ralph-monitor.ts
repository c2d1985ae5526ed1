import { InvalidArgumentError } from 'commander';
import { MAX_INTERVAL_SEC, MIN_INTERVAL_SEC, runMonitorCommand, type MonitorOptions } from '../features/monitor/monitor-command.js';
import { packageVersion } from '../infra/package-info.js';
import { createDefaultDeps } from './deps.js';
import { runMain } from './main.js';
import { createCommand, parseArgv, processIo } from './program.js';

function parseInterval(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < MIN_INTERVAL_SEC || n > MAX_INTERVAL_SEC) {
    throw new InvalidArgumentError(`Expected a number of seconds from ${MIN_INTERVAL_SEC} to ${MAX_INTERVAL_SEC}.`);
  }
  return n;
}

/** ralph-monitor's flags; undefined when help or the version was printed. */
async function parseMonitorArgs(argv: readonly string[]): Promise<MonitorOptions | undefined> {
  const program = createCommand('ralph-monitor', processIo, {
    description: 'Live dashboard of a Ralph loop: reads .ralph/ in the project and redraws every few seconds.',
    version: packageVersion(),
    notes: '\nWorks in any terminal, with or without tmux. `ralph --monitor` opens it next to the loop.\n',
    examples: [
      ['ralph-monitor', 'the live dashboard of the loop in this folder (Ctrl+C to leave)'],
      ['ralph-monitor --project ~/code/my-app --interval 5', 'another project, redrawn every 5 s'],
      ['ralph-monitor --once --no-color', 'one plain frame, for logs'],
      ['ralph-monitor --json', 'the current state as JSON, for scripts'],
    ],
    exitCodes: [
      ['0', 'done (or left with Ctrl+C)'],
      ['2', 'usage error'],
    ],
  })
    .option('-i, --interval <sec>', `refresh interval in seconds (${MIN_INTERVAL_SEC}-${MAX_INTERVAL_SEC})`, parseInterval, 2)
    .option('--once', 'print one frame and exit (for scripts)')
    .option('--json', 'print the current state as one JSON document and exit')
    .option('--no-color', 'plain text without colours')
    .option('-p, --project <dir>', 'project directory (default: the current directory)');
  if (!(await parseArgv(program, argv))) return undefined;
  const flags = program.opts<{ interval: number; once?: boolean; json?: boolean; color: boolean; project?: string }>();
  return {
    intervalSec: flags.interval,
    once: flags.once === true,
    json: flags.json === true,
    color: flags.color,
    ...(flags.project !== undefined ? { project: flags.project } : {}),
  };
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
    const options = await parseMonitorArgs(argv);
    if (!options) return 0;
    return runMonitorCommand(options, {
      stdout: process.stdout,
      stderr: process.stderr,
      clock: createDefaultDeps().clock,
      signal: stop.signal,
      cwd: process.cwd(),
      env: process.env,
    });
  },
  { json: true },
);
for (const name of signals) process.off(name, onSignal);
