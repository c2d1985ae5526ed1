import { FINISHED_STATES, type QueueItem } from './queue-item.js';

/**
 * Dependencies between queued items. Only items in the queue take part: a
 * dependency on an id the queue does not hold (an issue that was never added,
 * an item removed since) holds nothing back, as in the original Ralph, and a
 * later `add` of that id restores the order for dependants still pending.
 */

/** The first dependency cycle found, as the ids along it with the first repeated at the end (`a → b → a`). */
export function findCycle(items: readonly QueueItem[]): string[] | undefined {
  const byId = new Map(items.map((item) => [item.id, item]));
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (id: string): string[] | undefined => {
    const at = onPath.indexOf(id);
    if (at >= 0) return [...onPath.slice(at), id];
    if (done.has(id)) return undefined;
    const item = byId.get(id);
    if (!item) return undefined;
    onPath.push(id);
    for (const dep of item.depends_on) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    onPath.pop();
    done.add(id);
    return undefined;
  };
  for (const item of items) {
    const cycle = visit(item.id);
    if (cycle) return cycle;
  }
  return undefined;
}

export function formatCycle(cycle: readonly string[]): string {
  return cycle.join(' → ');
}

/** Most urgent first, then first come first served (the queue's order is the order of adding). */
function byPriorityThenFifo(items: readonly QueueItem[]): QueueItem[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => a.item.priority - b.item.priority || a.index - b.index)
    .map(({ item }) => item);
}

/** Pending items whose dependencies (those in the queue) have all completed, in the order they should start. */
export function nextReady(items: readonly QueueItem[]): QueueItem[] {
  const states = new Map(items.map((item) => [item.id, item.state]));
  const ready = items.filter((item) => item.state === 'pending' && item.depends_on.every((dep) => (states.get(dep) ?? 'completed') === 'completed'));
  return byPriorityThenFifo(ready);
}

export interface SkipDecision {
  id: string;
  reason: string;
}

/**
 * Pending items that can never run because a dependency failed or was
 * skipped become skipped, with the reason; this runs until nothing changes,
 * so a chain `c → b → a` with `a` failed skips both `b` and `c`.
 */
export function skipBlocked(items: readonly QueueItem[], nowIso: string): { items: QueueItem[]; skipped: SkipDecision[] } {
  const next = items.map((item) => ({ ...item }));
  const byId = new Map(next.map((item) => [item.id, item]));
  const skipped: SkipDecision[] = [];
  let changed = true;
  while (changed) {
    changed = false;
    for (const item of next) {
      if (item.state !== 'pending') continue;
      const blocker = item.depends_on.map((dep) => byId.get(dep)).find((dep) => dep && (dep.state === 'failed' || dep.state === 'skipped'));
      if (!blocker) continue;
      const reason = `dependency ${blocker.id} ${blocker.state}`;
      item.state = 'skipped';
      item.reason = reason;
      item.finished_at = nowIso;
      skipped.push({ id: item.id, reason });
      changed = true;
    }
  }
  return { items: next, skipped };
}

/** Ids that depend on `id` and have not finished: what removing it would set free early. */
export function pendingDependants(items: readonly QueueItem[], id: string): string[] {
  return items.filter((item) => item.depends_on.includes(id) && !FINISHED_STATES.includes(item.state)).map((item) => item.id);
}
