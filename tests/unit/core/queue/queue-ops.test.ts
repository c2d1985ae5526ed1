import { describe, expect, it } from 'vitest';
import type { QueueDocument, QueueItem, QueueState } from '../../../../src/core/queue/queue-item.js';
import { addItems, claimNext, clearItems, finishItem, recoverInterrupted, removeItem, type QueueDraft } from '../../../../src/core/queue/queue-ops.js';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:01:00.000Z';
const OWNER = { pid: 4242, host: 'box' };

function item(id: string, state: QueueState = 'pending', depends_on: string[] = [], priority = 5): QueueItem {
  return { id, source: 'task', title: id, spec: id, priority, depends_on, state, created_at: T0 };
}

function draft(id: string, depends_on: string[] = []): QueueDraft {
  return { id, source: 'task', title: id, spec: id, priority: 5, depends_on };
}

const doc = (...items: QueueItem[]): QueueDocument => ({ version: 1, items });

describe('addItems', () => {
  it('appends pending items with their time and keeps an id already there', () => {
    const change = addItems(doc(item('t1')), [draft('t1'), draft('t2')], T1);
    expect(change.ok && change.value).toEqual({ added: [{ ...draft('t2'), state: 'pending', created_at: T1 }], duplicates: ['t1'] });
    expect(change.ok && change.doc.items.map((i) => i.id)).toEqual(['t1', 't2']);
  });

  it('refuses a cycle and names it', () => {
    const change = addItems(doc(item('gh-1', 'pending', ['gh-2'])), [draft('gh-2', ['gh-1'])], T1);
    expect(change).toEqual({ ok: false, refusal: { kind: 'cycle', cycle: ['gh-1', 'gh-2', 'gh-1'] } });
  });
});

describe('removeItem and clearItems', () => {
  it('removes an item, refuses a running one and an unknown id', () => {
    const queue = doc(item('a'), item('b', 'running'));
    const removed = removeItem(queue, 'a');
    expect(removed.ok && removed.doc.items.map((i) => i.id)).toEqual(['b']);
    expect(removeItem(queue, 'b')).toEqual({ ok: false, refusal: { kind: 'running', id: 'b' } });
    expect(removeItem(queue, 'zz')).toEqual({ ok: false, refusal: { kind: 'unknown_id', id: 'zz' } });
  });

  it('clear removes finished items; --all also pending ones, never running ones', () => {
    const queue = doc(item('a'), item('b', 'running'), item('c', 'completed'), item('d', 'failed'), item('e', 'skipped'));
    const finished = clearItems(queue, false);
    expect(finished.ok && finished.doc.items.map((i) => i.id)).toEqual(['a', 'b']);
    const all = clearItems(queue, true);
    expect(all.ok && all.doc.items.map((i) => i.id)).toEqual(['b']);
    expect(all.ok && all.value.keptRunning).toEqual(['b']);
  });
});

describe('claimNext and finishItem', () => {
  it('claims the most urgent ready item with its branch and worktree', () => {
    const change = claimNext(doc(item('t1'), item('t2', 'pending', [], 1)), OWNER, T1);
    if (!change.ok) throw new Error('refused');
    expect(change.value.item).toMatchObject({ id: 't2', state: 'running', started_at: T1, owner: OWNER, branch: 'ralph/t2', worktree: '.ralph/worktrees/t2' });
    expect(change.doc.items.find((i) => i.id === 't2')?.state).toBe('running');
  });

  it('skips items behind a failure on the way, and claims nothing when nothing is ready', () => {
    const change = claimNext(doc(item('a', 'failed'), item('b', 'pending', ['a']), item('c', 'running'), item('d', 'pending', ['c'])), OWNER, T1);
    if (!change.ok) throw new Error('refused');
    expect(change.value).toEqual({ item: undefined, skipped: [{ id: 'b', reason: 'dependency a failed' }] });
  });

  it('refuses a queue with a cycle', () => {
    expect(claimNext(doc(item('a', 'pending', ['b']), item('b', 'pending', ['a'])), OWNER, T1)).toEqual({
      ok: false,
      refusal: { kind: 'cycle', cycle: ['a', 'b', 'a'] },
    });
  });

  it('records the end of an item and lets its dependants go', () => {
    const claimed = claimNext(doc(item('a'), item('b', 'pending', ['a'])), OWNER, T0);
    if (!claimed.ok) throw new Error('refused');
    const done = finishItem(claimed.doc, 'a', 'completed', { exit_reason: 'plan_complete', exit_code: 0, cost: 0.5, iterations: 3, branch: 'ralph/a' }, T1);
    if (!done.ok) throw new Error('refused');
    expect(done.value).toMatchObject({ state: 'completed', finished_at: T1, result: { exit_code: 0, cost: 0.5 } });
    expect(done.value.owner).toBeUndefined();
    const next = claimNext(done.doc, OWNER, T1);
    expect(next.ok && next.value.item?.id).toBe('b');
    expect(finishItem(done.doc, 'zz', 'failed', {}, T1)).toEqual({ ok: false, refusal: { kind: 'unknown_id', id: 'zz' } });
  });
});

describe('recoverInterrupted', () => {
  it("puts a dead run's items back to pending and leaves a live run's alone", () => {
    const dead = { ...item('a', 'running'), owner: { pid: 1, host: 'box' }, started_at: T0 };
    const alive = { ...item('b', 'running'), owner: { pid: 2, host: 'box' }, started_at: T0 };
    const orphan = item('c', 'running');
    const { doc: next, recovered } = recoverInterrupted(doc(dead, alive, orphan, item('d')), (owner) => owner.pid === 2);
    expect(recovered).toEqual(['a', 'c']);
    expect(next.items.map((i) => i.state)).toEqual(['pending', 'running', 'pending', 'pending']);
    expect(next.items[0]?.owner).toBeUndefined();
    expect(next.items[0]?.started_at).toBeUndefined();
    expect(next.items[0]?.reason).toMatch(/interrupted/);
  });

  it('returns the same document when nothing was running', () => {
    const queue = doc(item('a'));
    expect(recoverInterrupted(queue, () => false).doc).toBe(queue);
  });
});
