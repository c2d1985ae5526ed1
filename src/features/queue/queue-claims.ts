import { formatCycle, type SkipDecision } from '../../core/queue/queue-graph.js';
import type { QueueItem, QueueOwner, QueueResult } from '../../core/queue/queue-item.js';
import { claimNext, finishItem, type QueueRefusal } from '../../core/queue/queue-ops.js';
import { ExitCode, RalphError } from '../../errors.js';
import type { RalphPaths } from '../../state/paths.js';
import { currentOwner, updateQueue } from '../../state/queue-store.js';

/**
 * The queue as a runner of items uses it: take the next ready item, record
 * how it ended, recover what a crashed run left. Each step is one locked
 * change of `.ralph/queue.json`, so several runners (or a runner and a
 * `ralph queue add` typed meanwhile) never take the same item or lose a
 * result.
 */
export interface ClaimOptions {
  /** Defaults to this process. */
  owner?: QueueOwner;
  nowMs: number;
  notice?: (message: string) => void;
}

function refusalError(refusal: QueueRefusal): RalphError {
  switch (refusal.kind) {
    case 'cycle':
      return new RalphError(
        `The queue has a dependency cycle (${formatCycle(refusal.cycle)}); none of its items can start.`,
        ExitCode.Usage,
        'Remove one of them with ralph queue remove ID, then run again.',
      );
    case 'unknown_id':
      return new RalphError(`${refusal.id} is no longer in the queue.`, ExitCode.RuntimeError, 'It was removed while it ran; its work is still on its branch.');
    case 'running':
      return new RalphError(`${refusal.id} is running.`, ExitCode.RuntimeError);
  }
}

export interface Claim {
  item: QueueItem | undefined;
  skipped: SkipDecision[];
}

/** Takes the next ready item for the owner (undefined when none is ready); items behind a failure are skipped on the way. */
export async function claimNextItem(paths: RalphPaths, options: ClaimOptions): Promise<Claim> {
  const owner = options.owner ?? currentOwner();
  const claim = await updateQueue(
    paths,
    (doc) => {
      const change = claimNext(doc, owner, new Date(options.nowMs).toISOString());
      if (!change.ok) throw refusalError(change.refusal);
      return { doc: change.doc, value: change.value };
    },
    { onRecovered: (ids) => options.notice?.(`${ids.join(', ')} went back to pending: the run that started them is gone`) },
  );
  for (const skip of claim.skipped) options.notice?.(`${skip.id} skipped: ${skip.reason}`);
  return claim;
}

/** Records how an item's run ended (completed, failed, or skipped by the runner). */
export async function recordItemEnd(
  paths: RalphPaths,
  id: string,
  state: 'completed' | 'failed' | 'skipped',
  result: QueueResult,
  nowMs: number,
): Promise<QueueItem> {
  return updateQueue(paths, (doc) => {
    const change = finishItem(doc, id, state, result, new Date(nowMs).toISOString());
    if (!change.ok) throw refusalError(change.refusal);
    return { doc: change.doc, value: change.value };
  });
}

/** Puts the items of dead runs back to pending now (a runner does this before it starts); returns their ids. */
export async function recoverQueue(paths: RalphPaths): Promise<string[]> {
  let recovered: string[] = [];
  await updateQueue(paths, (doc) => ({ doc, value: undefined }), { onRecovered: (ids) => (recovered = ids) });
  return recovered;
}
