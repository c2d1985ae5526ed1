import { describe, expect, it } from 'vitest';
import { dependencyNumbers } from '../../../../src/core/queue/issue-dependencies.js';
import { findCycle, formatCycle, nextReady, pendingDependants, skipBlocked } from '../../../../src/core/queue/queue-graph.js';
import { freshPlaceName, isValidId, issueNumberOf, nextSequentialId, raiseIssued, sanitizeId } from '../../../../src/core/queue/queue-ids.js';
import type { QueueItem, QueueState } from '../../../../src/core/queue/queue-item.js';
import { parsePriority, priorityFromLabel, priorityFromLabels } from '../../../../src/core/queue/queue-priority.js';
import { summarizeQueue } from '../../../../src/core/queue/queue-summary.js';

const T0 = '2026-01-01T00:00:00.000Z';

function item(id: string, state: QueueState = 'pending', priority = 5, depends_on: string[] = []): QueueItem {
  return { id, source: 'task', title: id, spec: id, priority, depends_on, state, created_at: T0 };
}

describe('priorities from labels', () => {
  it.each<[string, number | undefined]>([
    ['P0', 0],
    ['p3', 3],
    ['priority: P1', 1],
    ['priority/P2', 2],
    ['priority-p4', 4],
    ['Priority:7', 7],
    ['priority P9', 9],
    ['bug', undefined],
    ['P10', undefined],
    ['help wanted', undefined],
    ['p', undefined],
  ])('%s → %s', (label, expected) => {
    expect(priorityFromLabel(label)).toBe(expected);
  });

  it('the most urgent of several wins; none is undefined', () => {
    expect(priorityFromLabels(['bug', 'P3', 'priority: P1'])).toBe(1);
    expect(priorityFromLabels(['bug', 'enhancement'])).toBeUndefined();
  });

  it.each<[string, number | undefined]>([
    ['0', 0],
    ['9', 9],
    ['P2', 2],
    ['10', undefined],
    ['-1', undefined],
    ['high', undefined],
  ])('--priority %s → %s', (text, expected) => {
    expect(parsePriority(text)).toBe(expected);
  });
});

describe('dependencies in an issue body', () => {
  it.each<[string, number[]]>([
    ['Depends on #12', [12]],
    ['blocked by #3 and depends on: #4', [3, 4]],
    ['Requires #5, #6 and #7', [5, 6, 7]],
    ['depends on #12\nBlocked by #12', [12]],
    ['see #9 for context', []],
    ['depends on 12', []],
    ['depends on #8 (itself)', []],
  ])('%j → %j', (body, expected) => {
    expect(dependencyNumbers(body, 8)).toEqual(expected);
  });
});

describe('ids', () => {
  it.each<[string, boolean]>([
    ['t1', true],
    ['gh-12', true],
    ['prd-login-page', true],
    ['T1', false],
    ['-t1', false],
    ['t1-', false],
    ['a--b', false],
    ['a/b', false],
    ['a'.repeat(41), false],
    ['', false],
  ])('%s valid: %s', (id, valid) => {
    expect(isValidId(id)).toBe(valid);
  });

  it('sequential ids continue after the highest, whatever was removed', () => {
    expect(nextSequentialId([], 't')).toBe('t1');
    expect(nextSequentialId([{ id: 't1' }, { id: 't7' }, { id: 'gh-30' }, { id: 'p9' }], 't')).toBe('t8');
    expect(nextSequentialId([{ id: 't1' }], 'p')).toBe('p1');
  });

  it('a number given out once is never given again: not after clear (the queue keeps the highest), not while its branch or worktree is left', () => {
    expect(nextSequentialId([], 't', { issued: { t: 4 } })).toBe('t5');
    expect(nextSequentialId([{ id: 't9' }], 't', { issued: { t: 4 } })).toBe('t10');
    const taken = (name: string): boolean => ['t1', 't2', 't4', 'p1'].includes(name);
    expect(nextSequentialId([], 't', { taken })).toBe('t3');
    expect(nextSequentialId([], 't', { issued: { t: 2 }, taken })).toBe('t3');
    expect(nextSequentialId([], 'p', { issued: { t: 9 }, taken })).toBe('p2');
    expect(raiseIssued(undefined, ['t3', 'p2', 'gh-40', 't1'])).toEqual({ t: 3, p: 2 });
    expect(raiseIssued({ t: 7 }, ['t3'])).toEqual({ t: 7 });
  });

  it('an issue id whose branch is left from an earlier item gets the first free fresh name', () => {
    const taken = (name: string): boolean => ['gh-12', 'gh-12-2'].includes(name);
    expect(freshPlaceName('gh-12', taken)).toBe('gh-12-3');
    expect(freshPlaceName('gh-13', taken)).toBeUndefined();
  });

  it('gh ids give their issue number back; any text becomes a safe id', () => {
    expect(issueNumberOf('gh-12')).toBe(12);
    expect(issueNumberOf('t12')).toBeUndefined();
    expect(sanitizeId('prd-/home/u/Docs/Login Page.md')).toBe('prd-home-u-docs-login-page-md');
    expect(isValidId(sanitizeId('…'))).toBe(true);
    expect(isValidId(sanitizeId('x'.repeat(80)))).toBe(true);
  });
});

describe('nextReady: priority, then first come first served, after dependencies', () => {
  it('orders by priority, then by the order of adding', () => {
    const items = [item('a', 'pending', 5), item('b', 'pending', 1), item('c', 'pending', 5), item('d', 'pending', 1)];
    expect(nextReady(items).map((i) => i.id)).toEqual(['b', 'd', 'a', 'c']);
  });

  it('waits for dependencies to complete', () => {
    const items = [item('a', 'running'), item('b', 'pending', 0, ['a']), item('c', 'pending', 9)];
    expect(nextReady(items).map((i) => i.id)).toEqual(['c']);
    const done = [item('a', 'completed'), item('b', 'pending', 0, ['a']), item('c', 'pending', 9)];
    expect(nextReady(done).map((i) => i.id)).toEqual(['b', 'c']);
  });

  it('a dependency the queue does not hold holds nothing back', () => {
    expect(nextReady([item('gh-15', 'pending', 5, ['gh-12'])]).map((i) => i.id)).toEqual(['gh-15']);
  });

  it('only pending items are ready', () => {
    expect(nextReady([item('a', 'running'), item('b', 'failed'), item('c', 'completed'), item('d', 'skipped')])).toEqual([]);
  });
});

describe('skipBlocked', () => {
  it('skips a chain behind a failed item, with why', () => {
    const items = [item('c', 'pending', 5, ['b']), item('b', 'pending', 5, ['a']), item('a', 'failed'), item('d')];
    const { items: next, skipped } = skipBlocked(items, T0);
    expect(skipped).toEqual([
      { id: 'b', reason: 'dependency a failed' },
      { id: 'c', reason: 'dependency b skipped' },
    ]);
    expect(next.map((i) => i.state)).toEqual(['skipped', 'skipped', 'failed', 'pending']);
    expect(next[0]?.finished_at).toBe(T0);
    // The input is not changed.
    expect(items[0]?.state).toBe('pending');
  });
});

describe('cycles', () => {
  it.each<[string, QueueItem[], string | undefined]>([
    ['none', [item('a'), item('b', 'pending', 5, ['a'])], undefined],
    ['two items', [item('a', 'pending', 5, ['b']), item('b', 'pending', 5, ['a'])], 'a → b → a'],
    [
      'three items behind a fourth',
      [item('x', 'pending', 5, ['a']), item('a', 'pending', 5, ['b']), item('b', 'pending', 5, ['c']), item('c', 'pending', 5, ['a'])],
      'a → b → c → a',
    ],
    ['itself', [item('a', 'pending', 5, ['a'])], 'a → a'],
    ['through an absent id: none', [item('a', 'pending', 5, ['zz'])], undefined],
  ])('%s', (_name, items, expected) => {
    const cycle = findCycle(items);
    expect(cycle ? formatCycle(cycle) : undefined).toBe(expected);
  });
});

describe('summary and dependants', () => {
  it('counts every state and names the running and the ready', () => {
    const items = [item('a', 'running'), item('b'), item('c', 'completed'), item('d', 'failed'), item('e', 'pending', 5, ['a'])];
    const summary = summarizeQueue(items);
    expect(summary.total).toBe(5);
    expect(summary.counts).toEqual({ pending: 2, running: 1, completed: 1, failed: 1, skipped: 0 });
    expect(summary.running.map((i) => i.id)).toEqual(['a']);
    expect(summary.ready).toEqual(['b']);
    expect(pendingDependants(items, 'a')).toEqual(['e']);
  });
});
