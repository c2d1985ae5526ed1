import type { QueueDocument, QueueItem } from './queue-item.js';
import type { QueueChange } from './queue-ops.js';

/**
 * A running item this run stops without an outcome — Ctrl+C, or the shared
 * budget ran out — goes back to pending. Its branch and worktree stay named,
 * so the next `ralph queue run` restarts it where its work is.
 */
export function releaseItem(doc: QueueDocument, id: string, reason: string): QueueChange<QueueItem> {
  const item = doc.items.find((candidate) => candidate.id === id);
  if (!item) return { ok: false, refusal: { kind: 'unknown_id', id } };
  const pending: QueueItem = { ...item, state: 'pending', reason };
  delete pending.owner;
  delete pending.started_at;
  return { ok: true, doc: { ...doc, items: doc.items.map((candidate) => (candidate.id === id ? pending : candidate)) }, value: pending };
}

/** Records a PR URL or merge note on a finished item's result. */
export function annotateResult(doc: QueueDocument, id: string, extra: NonNullable<QueueItem['result']>): QueueChange<QueueItem> {
  const item = doc.items.find((candidate) => candidate.id === id);
  if (!item) return { ok: false, refusal: { kind: 'unknown_id', id } };
  const next: QueueItem = { ...item, result: { ...item.result, ...extra } };
  return { ok: true, doc: { ...doc, items: doc.items.map((candidate) => (candidate.id === id ? next : candidate)) }, value: next };
}
