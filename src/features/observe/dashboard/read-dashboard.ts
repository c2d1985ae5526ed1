import { basename } from 'node:path';
import { ralphPaths } from '../../../state/paths.js';
import type { DashboardState } from './dashboard-view.js';
import { buildLoopView } from './loop-view.js';
import { readQueueLoops } from './queue-loops.js';
import { readLoopFiles, type LoopLocation } from '../loop-files.js';

/** The id of the project's own loop (queue item ids never take it). */
export const MAIN_LOOP_ID = 'main';

/** The loops the dashboard shows: the project's own, then each queue item that has a worktree. */
export function listLoops(projectDir: string): { loops: LoopLocation[]; notice: string | null } {
  const paths = ralphPaths(projectDir);
  const queue = readQueueLoops(paths);
  const main: LoopLocation = { id: MAIN_LOOP_ID, title: basename(paths.project), queueState: null, dir: paths.project, location: '.', outcome: null };
  return { loops: [main, ...queue.loops], notice: queue.notice };
}

/** Everything the page shows, read from the `.ralph/` folders now. */
export function readDashboardState(projectDir: string, now: number): DashboardState {
  const { loops, notice } = listLoops(projectDir);
  const paths = ralphPaths(projectDir);
  return {
    takenAt: new Date(now).toISOString(),
    project: { name: basename(paths.project), path: paths.project },
    notice,
    loops: loops.map((loop) => buildLoopView(readLoopFiles(loop), now)),
  };
}
