import { resolve } from 'node:path';
import type { Clock } from '../../../ports.js';
import { ralphPaths } from '../../../state/paths.js';
import { requireProjectDir } from '../../../state/project-files.js';
import { renderMonitor } from '../../../ui/render-monitor.js';
import { readMonitorSnapshot } from '../loop-files.js';
import { runMonitor, type MonitorStream } from './run-monitor.js';

export interface MonitorCommandIo {
  stdout: MonitorStream;
  stderr: { write(chunk: string): unknown };
  clock: Clock;
  signal: AbortSignal;
  cwd: string;
  env: Record<string, string | undefined>;
}

/** What the user asked of ralph-monitor, already parsed. */
export interface MonitorOptions {
  intervalSec: number;
  once: boolean;
  json: boolean;
  /** False for --no-color; colour is still only used on a terminal that wants it. */
  color: boolean;
  project?: string;
}

export const MIN_INTERVAL_SEC = 0.5;
export const MAX_INTERVAL_SEC = 3600;
export const DEFAULT_INTERVAL_SEC = 2;

/**
 * ralph-monitor: `json` prints the snapshot, `once` one frame, otherwise
 * the live dashboard until the signal aborts. Returns the exit code.
 */
export async function runMonitorCommand(options: MonitorOptions, io: MonitorCommandIo): Promise<number> {
  const projectDir = resolve(io.cwd, options.project ?? '.');
  const color = options.color && io.stdout.isTTY === true && !('NO_COLOR' in io.env) && io.env['TERM'] !== 'dumb';

  // One look at a folder that holds no project is an error; the live view waits for a loop to start.
  if (options.json || options.once) requireProjectDir(ralphPaths(projectDir));
  if (options.json) {
    io.stdout.write(`${JSON.stringify(readMonitorSnapshot(projectDir, io.clock.now()), null, 2)}\n`);
    return 0;
  }
  if (options.once) {
    const now = io.clock.now();
    const width = io.stdout.columns && io.stdout.columns > 0 ? io.stdout.columns : 80;
    const plain = io.stdout.isTTY !== true;
    io.stdout.write(renderMonitor(readMonitorSnapshot(projectDir, now), { width, color, now, intervalSec: options.intervalSec, once: true, plain }));
    return 0;
  }
  return runMonitor(
    { projectDir, intervalSec: options.intervalSec },
    { stdout: io.stdout, stderr: io.stderr, clock: io.clock, signal: io.signal, color, read: readMonitorSnapshot },
  );
}
