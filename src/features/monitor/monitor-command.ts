import { resolve } from 'node:path';
import { packageVersion } from '../../infra/package-info.js';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import type { Clock } from '../../ports.js';
import { helpFooter } from '../../ui/help-footer.js';
import { renderMonitor } from '../../ui/render-monitor.js';
import { readMonitorSnapshot } from './read-snapshot.js';
import { runMonitor, type MonitorStream } from './run-monitor.js';

export interface MonitorCommandIo {
  stdout: MonitorStream;
  stderr: { write(chunk: string): unknown };
  clock: Clock;
  signal: AbortSignal;
  cwd: string;
  env: Record<string, string | undefined>;
}

interface MonitorFlags {
  interval: number;
  once?: boolean;
  json?: boolean;
  color: boolean;
  project?: string;
}

export const MIN_INTERVAL_SEC = 0.5;
export const MAX_INTERVAL_SEC = 3600;

function parseInterval(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < MIN_INTERVAL_SEC || n > MAX_INTERVAL_SEC) {
    throw new InvalidArgumentError(`Expected a number of seconds from ${MIN_INTERVAL_SEC} to ${MAX_INTERVAL_SEC}.`);
  }
  return n;
}

function buildProgram(io: MonitorCommandIo): Command {
  return new Command('ralph-monitor')
    .description('Live dashboard of a Ralph loop: reads .ralph/ in the project and redraws every few seconds.')
    .option('-i, --interval <sec>', `refresh interval in seconds (${MIN_INTERVAL_SEC}-${MAX_INTERVAL_SEC})`, parseInterval, 2)
    .option('--once', 'print one frame and exit (for scripts)')
    .option('--json', 'print the current state as one JSON document and exit')
    .option('--no-color', 'plain text without colours')
    .option('-p, --project <dir>', 'project directory (default: the current directory)')
    .version(packageVersion(), '-V, --version')
    .addHelpText(
      'after',
      '\nWorks in any terminal, with or without tmux. `ralph --monitor` opens it next to the loop.\n' +
        helpFooter(
          [
            ['ralph-monitor', 'the live dashboard of the loop in this folder (Ctrl+C to leave)'],
            ['ralph-monitor --project ~/code/my-app --interval 5', 'another project, redrawn every 5 s'],
            ['ralph-monitor --once --no-color', 'one plain frame, for logs'],
            ['ralph-monitor --json', 'the current state as JSON, for scripts'],
          ],
          [
            ['0', 'done (or left with Ctrl+C)'],
            ['2', 'usage error'],
          ],
        ),
    )
    .exitOverride()
    .configureOutput({ writeOut: (s) => void io.stdout.write(s), writeErr: (s) => void io.stderr.write(s) });
}

/**
 * ralph-monitor: `--json` prints the snapshot, `--once` one frame, otherwise
 * the live dashboard until Ctrl+C. Returns the exit code.
 */
export async function runMonitorCommand(argv: string[], io: MonitorCommandIo): Promise<number> {
  const program = buildProgram(io);
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      io.stderr.write('Run ralph-monitor --help for the accepted flags.\n');
      return 2;
    }
    throw error;
  }
  const flags = program.opts<MonitorFlags>();
  const projectDir = resolve(io.cwd, flags.project ?? '.');
  const color = flags.color && io.stdout.isTTY === true && !('NO_COLOR' in io.env) && io.env['TERM'] !== 'dumb';

  if (flags.json) {
    io.stdout.write(`${JSON.stringify(readMonitorSnapshot(projectDir, io.clock.now()), null, 2)}\n`);
    return 0;
  }
  if (flags.once) {
    const now = io.clock.now();
    const width = io.stdout.columns && io.stdout.columns > 0 ? io.stdout.columns : 80;
    io.stdout.write(renderMonitor(readMonitorSnapshot(projectDir, now), { width, color, now, intervalSec: flags.interval }));
    return 0;
  }
  return runMonitor({ projectDir, intervalSec: flags.interval }, { stdout: io.stdout, stderr: io.stderr, clock: io.clock, signal: io.signal, color, read: readMonitorSnapshot });
}
