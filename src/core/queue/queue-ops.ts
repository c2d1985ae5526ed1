import { raiseIssued } from './queue-ids.js';
import { findCycle, nextReady, skipBlocked, type SkipDecision } from './queue-graph.js';
import { FINISHED_STATES, itemBranch, itemWorktree, type QueueDocument, type QueueItem, type QueueOwner, type QueueResult } from './queue-item.js';

/**
 * The changes made to a queue, as pure functions of the document: each
 * returns the new document (or why it refused) and what a command reports.
 * The store applies them under its lock, so the document they start from is
 * always the one on disk.
 */

/** An item as a source makes it, before the queue takes it in. */
export type QueueDraft = Omit<QueueItem, 'state' | 'created_at'>;

export type QueueRefusal = { kind: 'cycle'; cycle: string[] } | { kind: 'unknown_id'; id: string } | { kind: 'running'; id: string };

export type QueueChange<T> = { ok: true; doc: QueueDocument; value: T } | { ok: false; refusal: QueueRefusal };

export interface AddOutcome {
  added: QueueItem[];
  /** Ids already in the queue: the existing item is kept as it is. */
  duplicates: string[];
}

export function addItems(doc: QueueDocument, drafts: readonly QueueDraft[], nowIso: string): QueueChange<AddOutcome> {
  const known = new Set(doc.items.map((item) => item.id));
  const added: QueueItem[] = [];
  const duplicates: string[] = [];
  for (const draft of drafts) {
    if (known.has(draft.id)) {
      duplicates.push(draft.id);
      continue;
    }
    known.add(draft.id);
    added.push({ ...draft, state: 'pending', created_at: nowIso });
  }
  const items = [...doc.items, ...added];
  const cycle = findCycle(items);
  if (cycle) return { ok: false, refusal: { kind: 'cycle', cycle } };
  const issued = raiseIssued(
    doc.issued_ids,
    items.map((item) => item.id),
  );
  return { ok: true, doc: { ...doc, items, ...(Object.keys(issued).length > 0 ? { issued_ids: issued } : {}) }, value: { added, duplicates } };
}

export function removeItem(doc: QueueDocument, id: string): QueueChange<QueueItem> {
  const item = doc.items.find((candidate) => candidate.id === id);
  if (!item) return { ok: false, refusal: { kind: 'unknown_id', id } };
  if (item.state === 'running') return { ok: false, refusal: { kind: 'running', id } };
  return { ok: true, doc: { ...doc, items: doc.items.filter((candidate) => candidate.id !== id) }, value: item };
}

export interface ClearOutcome {
  removed: QueueItem[];
  /** Running items are never cleared: a loop is working on them. */
  keptRunning: string[];
}

/** Removes the finished items, or with `all` every item that is not running. */
export function clearItems(doc: QueueDocument, all: boolean): QueueChange<ClearOutcome> {
  const removes = (item: QueueItem): boolean => (all ? item.state !== 'running' : FINISHED_STATES.includes(item.state));
  const removed = doc.items.filter(removes);
  const keptRunning = all ? doc.items.filter((item) => item.state === 'running').map((item) => item.id) : [];
  return { ok: true, doc: { ...doc, items: doc.items.filter((item) => !removes(item)) }, value: { removed, keptRunning } };
}

export interface ClaimOutcome {
  /** The item now running for `owner`, or undefined when none is ready. */
  item: QueueItem | undefined;
  skipped: SkipDecision[];
}

/**
 * Takes the next ready item for `owner`: it becomes `running` with its branch
 * and worktree named. Items whose dependency failed are skipped on the way.
 */
export function claimNext(doc: QueueDocument, owner: QueueOwner, nowIso: string): QueueChange<ClaimOutcome> {
  const cycle = findCycle(doc.items);
  if (cycle) return { ok: false, refusal: { kind: 'cycle', cycle } };
  const settled = skipBlocked(doc.items, nowIso);
  const next = nextReady(settled.items)[0];
  if (!next) return { ok: true, doc: { ...doc, items: settled.items }, value: { item: undefined, skipped: settled.skipped } };
  const running: QueueItem = {
    ...next,
    state: 'running',
    started_at: nowIso,
    owner,
    branch: next.branch ?? itemBranch(next.id),
    worktree: next.worktree ?? itemWorktree(next.id),
  };
  delete running.finished_at;
  delete running.reason;
  const items = settled.items.map((item) => (item.id === next.id ? running : item));
  return { ok: true, doc: { ...doc, items }, value: { item: running, skipped: settled.skipped } };
}

/** Records how a running item ended. */
export function finishItem(
  doc: QueueDocument,
  id: string,
  state: 'completed' | 'failed' | 'skipped',
  result: QueueResult,
  nowIso: string,
): QueueChange<QueueItem> {
  const item = doc.items.find((candidate) => candidate.id === id);
  if (!item) return { ok: false, refusal: { kind: 'unknown_id', id } };
  const finished: QueueItem = { ...item, state, finished_at: nowIso, result };
  delete finished.owner;
  if (result.error !== undefined) finished.reason = result.error;
  return { ok: true, doc: { ...doc, items: doc.items.map((candidate) => (candidate.id === id ? finished : candidate)) }, value: finished };
}

/**
 * A run that died (kill -9, a crash, a power cut) leaves its items `running`.
 * Those whose owner is gone go back to pending, so the next run starts them
 * again; items of a run still alive are left to it.
 */
export function recoverInterrupted(doc: QueueDocument, isOwnerAlive: (owner: QueueOwner) => boolean): { doc: QueueDocument; recovered: string[] } {
  const recovered: string[] = [];
  const items = doc.items.map((item) => {
    if (item.state !== 'running' || (item.owner && isOwnerAlive(item.owner))) return item;
    recovered.push(item.id);
    const pending: QueueItem = { ...item, state: 'pending', reason: 'interrupted: the run that started it ended without finishing it' };
    delete pending.owner;
    delete pending.started_at;
    return pending;
  });
  return { doc: recovered.length > 0 ? { ...doc, items } : doc, recovered };
}
