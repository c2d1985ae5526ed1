import { relative } from 'node:path';
import type { QueueDocument } from '../../core/queue/queue-item.js';
import { unreadableReason } from '../../infra/regular-file.js';
import { readDocument, type JsonRead } from '../../state/document-store.js';
import { QUEUE } from '../../state/documents/queue.js';
import type { RalphPaths } from '../../state/paths.js';
import { queueWorktreeDir } from '../queue/worktree-dir.js';
import type { LoopLocation } from './read-loop-files.js';

/** What the dashboard learned from `.ralph/queue.json`: the loops it names, or why it could not tell. */
export interface QueueLoops {
  loops: LoopLocation[];
  notice: string | null;
}

/**
 * The loops of a queue run, one per item that has a worktree, in the queue's
 * order, read through the queue's own document (the original bash Ralph's file
 * included). No queue file is no queue (no notice); a file that cannot be read
 * gives no loops and a notice saying why.
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
    if (item.worktree === undefined || item.worktree === '') continue;
    if (seen.has(item.id)) {
      repeated.push(item.id);
      continue;
    }
    const dir = queueWorktreeDir(paths, item.worktree);
    // Not created yet, removed after the item finished, or outside the project.
    if (dir === undefined) continue;
    seen.add(item.id);
    loops.push({ id: item.id, title: item.title || item.id, queueState: item.state, dir, location: relative(paths.project, dir) });
  }
  const notice = repeated.length > 0 ? `queue items with a repeated id are not shown: ${repeated.join(', ')}` : null;
  return { loops, notice };
}
