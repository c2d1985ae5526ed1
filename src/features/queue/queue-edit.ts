import { pendingDependants } from '../../core/queue/queue-graph.js';
import type { QueueItem } from '../../core/queue/queue-item.js';
import { clearItems, removeItem, type ClearOutcome } from '../../core/queue/queue-ops.js';
import { ExitCode, RalphError } from '../../errors.js';
import type { RalphPaths } from '../../state/paths.js';
import { updateQueue } from '../../state/queue-store.js';

/**
 * `ralph queue remove ID` and `ralph queue clear [--all]`. A running item is
 * never removed: the loop working on it would record its end in an item that
 * is gone. `clear` removes the finished items (completed, failed, skipped);
 * `--all` also the pending ones.
 */
export async function removeFromQueue(paths: RalphPaths, id: string, notice: (message: string) => void): Promise<QueueItem> {
  let dependants: string[] = [];
  const removed = await updateQueue(
    paths,
    (doc) => {
      const change = removeItem(doc, id);
      if (!change.ok) {
        if (change.refusal.kind === 'running') {
          throw new RalphError(
            `${id} is running; a running item is not removed.`,
            ExitCode.RuntimeError,
            'Stop the queue run first (Ctrl+C in its terminal), then remove it.',
          );
        }
        const known = doc.items.map((item) => item.id);
        throw new RalphError(
          `${id}: no such item in the queue.`,
          ExitCode.Usage,
          known.length > 0 ? `The queue holds ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', …' : ''}; see ralph queue list.` : 'The queue is empty.',
        );
      }
      dependants = pendingDependants(change.doc.items, id);
      return { doc: change.doc, value: change.value };
    },
    { onRecovered: (ids) => notice(`${ids.join(', ')} went back to pending: the run that started them is gone`) },
  );
  if (dependants.length > 0) notice(`${dependants.join(', ')} waited for ${id}; without it in the queue they no longer wait`);
  return removed;
}

export async function clearQueue(paths: RalphPaths, all: boolean, notice: (message: string) => void): Promise<ClearOutcome> {
  const outcome = await updateQueue(
    paths,
    (doc) => {
      const change = clearItems(doc, all);
      if (!change.ok) throw new RalphError('the queue could not be cleared', ExitCode.RuntimeError);
      return { doc: change.doc, value: change.value };
    },
    { onRecovered: (ids) => notice(`${ids.join(', ')} went back to pending: the run that started them is gone`) },
  );
  if (outcome.keptRunning.length > 0) notice(`${outcome.keptRunning.join(', ')} kept: running`);
  return outcome;
}
