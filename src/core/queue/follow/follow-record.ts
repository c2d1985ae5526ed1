import type { CheckState } from './ci-checks.js';
import type { QueueDocument, QueueItem } from '../queue-item.js';
import type { QueueChange } from '../queue-ops.js';

/**
 * What `ralph queue run --follow-checks` records on an item while it follows
 * the item's pull request, kept once it is done: which round it is in, the
 * commit whose checks it waits for, and each check's last state — what
 * `ralph queue status`, the monitor and the dashboard show.
 */
export const FOLLOW_STATES = ['waiting', 'fixing', 'passed', 'failed', 'no-checks', 'timed-out', 'stopped'] as const;
export type FollowState = (typeof FOLLOW_STATES)[number];

export interface FollowCheck {
  name: string;
  state: CheckState;
}

export interface QueueFollow {
  /** 1 while the first push is checked; each fixing round adds one. */
  round: number;
  max_rounds: number;
  pr_number: number;
  /** The pushed commit whose checks are waited for. */
  commit: string;
  state: FollowState;
  checks: FollowCheck[];
  /** What a round's diff did to tests (deleted, skipped), said for the reviewer. */
  tampering?: string[];
  updated_at: string;
}

const STATE_WORDS: Record<FollowState, string> = {
  waiting: 'waiting for checks',
  fixing: 'fixing',
  passed: 'checks passed',
  failed: 'checks failed',
  'no-checks': 'no checks',
  'timed-out': 'checks timed out',
  stopped: 'stopped (Ctrl+C or the budget)',
};

/** `round 2/3, waiting on 1a2b3c4d5e6f: ci/test pending, lint success` */
export function describeFollow(follow: QueueFollow): string {
  const checks = follow.checks.length > 0 ? `: ${follow.checks.map((check) => `${check.name} ${check.state}`).join(', ')}` : '';
  const state = STATE_WORDS[follow.state];
  return `round ${follow.round}/${follow.max_rounds}, ${state} on ${follow.commit.slice(0, 12)}${checks}`;
}

/** Records the follow state on the item (under the queue's lock, by the caller). */
export function recordFollow(doc: QueueDocument, id: string, follow: QueueFollow): QueueChange<QueueItem> {
  const item = doc.items.find((candidate) => candidate.id === id);
  if (!item) return { ok: false, refusal: { kind: 'unknown_id', id } };
  const next: QueueItem = { ...item, follow };
  return { ok: true, doc: { ...doc, items: doc.items.map((candidate) => (candidate.id === id ? next : candidate)) }, value: next };
}
