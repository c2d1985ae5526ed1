import { join, resolve } from 'node:path';
import { ExitCode, RalphError, UsageError } from '../../errors.js';
import { inspectEventLog, type InspectJson, type InspectSummary, type InspectTimeline } from '../../features/observe/event-log-inspect.js';
import { readEventLog, readReceiptLog } from '../../features/observe/loop-files.js';
import { pickReceipt, renderReceipt } from '../../features/observe/receipt-view.js';
import { launchTmuxMonitor } from '../../features/observe/tmux-monitor.js';
import { packageRoot } from '../../infra/package-info.js';
import { ralphPaths } from '../../state/paths.js';
import { createDefaultDeps } from '../deps.js';
import { loadProjectConfig } from '../load-project-config.js';
import { assertRalphProject } from '../project-check.js';
import type { RalphArgs } from '../ralph-args.js';

/**
 * `ralph --inspect`: the session recording, filtered, as one JSON document
 * (the shapes of test_inspect, plus `skipped_lines`). A damaged line — most
 * often the last one, cut off when a run was killed — costs only that line:
 * it is skipped, and how many were skipped is said on stderr and in the JSON.
 */
export function inspectCommand(args: RalphArgs, cwd: string): number {
  const paths = ralphPaths(cwd);
  if (args.inspect.receipt !== undefined) return inspectReceipt(paths.receipts, args.inspect.receipt, args.json);
  const read = readEventLog(paths.sessionRecording);
  if (read.error?.line === 0) throw new RalphError(read.error.message, ExitCode.RuntimeError, 'Run ralph in this project first; it records every run there.');
  const skipped = read.badLines ?? 0;
  if (read.error && skipped > 0) {
    const lines = skipped === 1 ? 'line' : 'lines';
    process.stderr.write(
      `ralph: warning: skipped ${skipped} damaged ${lines} of ${paths.sessionRecording} (first: ${read.error.message}); showing the ${read.records.length} intact records\n`,
    );
  }
  const i = args.inspect;
  const result = inspectEventLog(read.records, {
    filter: {
      ...(i.events.length > 0 ? { event_types: i.events } : {}),
      ...(i.topics.length > 0 ? { topics: i.topics } : {}),
      ...(i.afterIteration !== undefined ? { after_iteration: i.afterIteration } : {}),
      ...(i.beforeIteration !== undefined ? { before_iteration: i.beforeIteration } : {}),
      ...(i.payloadPattern !== undefined ? { payload_pattern: i.payloadPattern } : {}),
    },
    limit: i.limit,
    format: i.format,
  });
  if (!result.ok) throw new UsageError(result.error);
  process.stdout.write(`${JSON.stringify({ ...forPeople(result.value), skipped_lines: skipped }, null, 2)}\n`);
  return ExitCode.Completed;
}

/** `ralph --inspect --receipt N|last`: one iteration's receipt, readable (or as JSON with --json). */
function inspectReceipt(path: string, which: number | 'last', json: boolean): number {
  const read = readReceiptLog(path);
  for (const note of read.notes) process.stderr.write(`ralph: warning: ${path}: ${note}\n`);
  const receipt = pickReceipt(read.receipts, which);
  if (!receipt) {
    const loops = read.receipts.map((r) => r.loop);
    const known = loops.length > 0 ? `it holds loops ${Math.min(...loops)}–${Math.max(...loops)}` : 'it holds none yet';
    throw new RalphError(
      `No receipt for ${which === 'last' ? 'any loop' : `loop ${which}`} in ${path} (${known}).`,
      ExitCode.RuntimeError,
      'Each iteration of ralph writes one when it ends; name a loop it holds, or last.',
    );
  }
  process.stdout.write(json ? `${JSON.stringify(receipt, null, 2)}\n` : renderReceipt(receipt));
  return ExitCode.Completed;
}

/**
 * The recording as a person reads it. The agent-facing test_inspect tool keeps
 * its fixed shape (an agent role per iteration, always "ralph"); Ralph has one
 * agent, so here those fields say nothing and are left out.
 */
export function forPeople(value: InspectJson | InspectSummary | InspectTimeline): object {
  if ('hats_used' in value) {
    const { hats_used: _roles, ...summary } = value;
    return summary;
  }
  if ('timeline' in value) return { timeline: value.timeline.map(({ hat: _role, ...entry }) => entry) };
  return value;
}

/** Flags forwarded to the loop in the tmux layout: everything the user typed except --monitor. */
export function forwardedLoopArgs(argv: readonly string[]): string[] {
  const out = argv.filter((a) => a !== '-m' && a !== '--monitor');
  return out.includes('--live') || out.includes('-l') ? out : ['--live', ...out];
}

/**
 * `ralph --monitor`: the loop, its live output and the dashboard side by side
 * in tmux. The checks the loop would make on start run here first, so a bad
 * flag or a directory that is no Ralph project fails with the usual message
 * and exit code instead of opening a session in which nothing runs.
 */
export async function monitorCommand(args: RalphArgs, argv: readonly string[], cwd: string): Promise<number> {
  const paths = ralphPaths(cwd);
  const { config } = loadProjectConfig(paths, process.env, args.flags);
  assertRalphProject(paths, resolve(paths.project, config.promptFile));
  const root = packageRoot();
  const deps = createDefaultDeps();
  const node = process.execPath;
  const result = await launchTmuxMonitor(
    {
      projectDir: cwd,
      loopCommand: [node, join(root, 'bin', 'ralph.js'), ...forwardedLoopArgs(argv)],
      monitorCommand: [node, join(root, 'bin', 'ralph-monitor.js')],
      paneRunner: [node, join(root, 'dist', 'bundle', 'monitor-loop-pane.js')],
      ...(process.env['RALPH_TMUX_SOCKET'] ? { socketName: process.env['RALPH_TMUX_SOCKET'] } : {}),
    },
    {
      runner: deps.runner,
      now: () => deps.clock.now(),
      isTTY: process.stdin.isTTY === true && process.stdout.isTTY === true,
      env: process.env,
      write: (text) => process.stderr.write(text),
    },
  );
  return result.exitCode;
}
