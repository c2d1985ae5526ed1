import { QUEUE_STATES, type QueueItem, type QueueState } from './queue-item.js';
import { nextReady } from './queue-graph.js';

/** What `ralph queue status` reports: how many items are in each state, which run, which come next. */
export interface QueueSummary {
  total: number;
  counts: Record<QueueState, number>;
  running: QueueItem[];
  /** Ids of the items that would start next, in order. */
  ready: string[];
}

export function summarizeQueue(items: readonly QueueItem[]): QueueSummary {
  const counts = Object.fromEntries(QUEUE_STATES.map((state) => [state, 0])) as Record<QueueState, number>;
  for (const item of items) counts[item.state] += 1;
  return { total: items.length, counts, running: items.filter((item) => item.state === 'running'), ready: nextReady(items).map((item) => item.id) };
}
