import { relative } from 'node:path';
import { FINISHED_STATES, type QueueDocument, type QueueItem } from '../../../core/queue/queue-item.js';
import { describeFollow } from '../../../core/queue/follow/follow-record.js';
import { unreadableReason } from '../../../state/regular-file.js';
import { readDocument, type JsonRead } from '../../../state/document-store.js';
import { QUEUE } from '../../../state/documents/queue.js';
import type { RalphPaths } from '../../../state/paths.js';
import { queueWorktreeDir } from '../../queue/worktree-dir.js';
import type { QueueOutcomeView } from './dashboard-view.js';
import type { LoopLocation } from '../loop-files.js';

/** What the dashboard learned from `.ralph/queue.json`: the loops it names, or why it could not tell. */
export interface QueueLoops {
  loops: LoopLocation[];
  notice: string | null;
}

/** How the queue recorded a finished item's end; null while it has not finished. */
function outcomeOf(item: QueueItem, worktreeKept: boolean): QueueOutcomeView | null {
  if (!FINISHED_STATES.includes(item.state)) return null;
  const r = item.result ?? {};
  return {
    state: item.state,
    exitReason: r.exit_reason ?? '',
    exitCode: r.exit_code ?? null,
    costUsd: r.cost ?? null,
    iterations: r.iterations ?? null,
    branch: r.branch ?? item.branch ?? '',
    prUrl: r.pr_url ?? '',
    error: r.error ?? item.reason ?? '',
    finishedAt: item.finished_at ?? '',
    worktreeKept,
  };
}

/**
 * The loops of a queue run, in the queue's order, read through the queue's own
 * document (the original bash Ralph's file included): each item that has a
 * worktree, read from it, and each finished item whose worktree is gone, from
 * the queue's record of how it ended (so a finished run stays visible). No
 * queue file is no queue (no notice); a file that cannot be read gives no
 * loops and a notice saying why.
 */
export function readQueueLoops(paths: RalphPaths): QueueLoops {
  const name = relative(paths.project, paths.queue);
  let read: JsonRead<QueueDocument>;
  try {
    read = readDocument(paths, QUEUE);
  } catch (error) {
    return { loops: [], notice: `${name}: ${unreadableReason(error)}; showing this project's loop only.` };
  }
  if (read.kind === 'missing') return { loops: [], notice: null };
  if (read.kind === 'corrupt') return { loops: [], notice: `${name} cannot be read: ${read.reason}; showing this project's loop only.` };
  const loops: LoopLocation[] = [];
  const repeated: string[] = [];
  // The project's own loop is shown as "main": an item of that id would hide it.
  const seen = new Set<string>(['main']);
  for (const item of read.value.items) {
    const hasWorktree = item.worktree !== undefined && item.worktree !== '';
    if (!hasWorktree && !FINISHED_STATES.includes(item.state)) continue;
    if (seen.has(item.id)) {
      repeated.push(item.id);
      continue;
    }
    // Not created yet, removed after the item finished, or outside the project: never read.
    const dir = hasWorktree ? queueWorktreeDir(paths, item.worktree ?? '') : undefined;
    const base = { id: item.id, title: item.title || item.id, queueState: item.state, ...(item.follow ? { follow: describeFollow(item.follow) } : {}) };
    if (dir !== undefined) {
      seen.add(item.id);
      loops.push({ ...base, dir, location: relative(paths.project, dir), outcome: outcomeOf(item, true) });
      continue;
    }
    const outcome = outcomeOf(item, false);
    if (outcome === null) continue;
    seen.add(item.id);
    loops.push({ ...base, dir: null, location: item.worktree ?? '', outcome });
  }
  const notice = repeated.length > 0 ? `queue items with a repeated id are not shown: ${repeated.join(', ')}` : null;
  return { loops, notice };
}
