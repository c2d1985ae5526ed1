import { InvalidArgumentError } from 'commander';
import { DEFAULT_INTERVAL_SEC, MAX_INTERVAL_SEC, MIN_INTERVAL_SEC, type MonitorOptions } from '../features/observe/monitor/monitor-command.js';
import { runMonitorProcess } from './monitor-process.js';
import { createBinaryCommand, parseArgv, processIo, type CommandIo } from './program.js';

function parseInterval(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < MIN_INTERVAL_SEC || n > MAX_INTERVAL_SEC) {
    throw new InvalidArgumentError(`Expected a number of seconds from ${MIN_INTERVAL_SEC} to ${MAX_INTERVAL_SEC}.`);
  }
  return n;
}

/** ralph-monitor's flags; undefined when help or the version was printed. */
export async function parseMonitorArgs(argv: readonly string[], io: CommandIo = processIo): Promise<MonitorOptions | undefined> {
  const program = createBinaryCommand('ralph-monitor', io, {
    description: 'Live dashboard of a Ralph loop: reads .ralph/ in the project and redraws every few seconds.',
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
    .option('-i, --interval <sec>', `refresh interval in seconds (${MIN_INTERVAL_SEC}-${MAX_INTERVAL_SEC})`, parseInterval, DEFAULT_INTERVAL_SEC)
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

/** `ralph-monitor` through its parser: --interval, --project, the live dashboard, errors (the fast path answers one frame). */
export const program = (): Promise<void> => runMonitorProcess((argv) => parseMonitorArgs(argv));
