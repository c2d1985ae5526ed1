import type { QueueItem } from '../../core/queue/queue-item.js';
import type { RunningLoopView } from '../../core/queue/running-loop-view.js';
import { describeFollow } from '../../core/queue/follow/follow-record.js';
import { readDocument, type DocumentSpec, type JsonRead } from '../../state/document-store.js';
import { PROGRESS } from '../../state/documents/progress.js';
import { STATUS } from '../../state/documents/status.js';
import { ralphPaths, type RalphPaths } from '../../state/paths.js';
import { queueWorktreeDir } from './worktree-dir.js';

/**
 * What each running item's loop is doing, read from the status.json and
 * progress.json it keeps in its worktree — the same files `ralph --status`
 * and the monitor read for a single loop. Read-only: a half-written or
 * missing file just leaves the fields empty.
 */
export function readRunningLoop(project: string, item: QueueItem): RunningLoopView {
  const view: RunningLoopView = {
    id: item.id,
    title: item.title,
    branch: item.branch,
    loop: 0,
    state: 'starting',
    costUsd: 0,
    costEstimated: false,
    lastAction: '',
    ...(item.follow ? { follow: describeFollow(item.follow) } : {}),
  };
  // queue.json is written by other processes: a worktree that is not a folder of the project's
  // .ralph/ (links followed) is never read from.
  const dir = item.worktree === undefined ? undefined : queueWorktreeDir(ralphPaths(project), item.worktree);
  if (dir === undefined) return view;
  const paths = ralphPaths(dir);
  const status = readShown(paths, STATUS);
  // A resumed item's worktree still holds the status of its interrupted run until the new loop writes its own.
  const current = status.kind === 'ok' && !(item.started_at && Date.parse(status.value.started_at ?? '') < Date.parse(item.started_at) - 1000);
  if (status.kind === 'ok' && current) {
    const s = status.value;
    view.loop = s.loop_count;
    view.state = s.status || view.state;
    view.costUsd = s.totals.cost_usd;
    view.costEstimated = s.totals.cost_estimated;
    view.lastAction = s.last_action;
  }
  const progress = readShown(paths, PROGRESS);
  if (current && progress.kind === 'ok' && progress.value.status !== 'idle' && progress.value.last_output !== '') view.lastAction = progress.value.last_output;
  return view;
}

/** A file that cannot be read at all (permissions, a named pipe in its place) shows as no data: the view is only a summary. */
function readShown<T>(paths: RalphPaths, doc: DocumentSpec<T, RalphPaths>): JsonRead<T> {
  try {
    return readDocument(paths, doc);
  } catch (error) {
    return { kind: 'corrupt', reason: String(error) };
  }
}

export function readRunningLoops(project: string, items: readonly QueueItem[]): RunningLoopView[] {
  return items.filter((item) => item.state === 'running').map((item) => readRunningLoop(project, item));
}
