import { describe, expect, it } from 'vitest';
import type { QueueItem } from '../../src/core/queue/queue-item.js';
import { summarizeQueue } from '../../src/core/queue/queue-summary.js';
import { renderQueueList, renderQueueStatus } from '../../src/ui/queue-lines.js';

const T0 = '2026-01-01T00:00:00.000Z';
const items: QueueItem[] = [
  {
    id: 'gh-12',
    source: 'github',
    title: 'Fix login',
    spec: '',
    priority: 1,
    depends_on: [],
    state: 'completed',
    created_at: T0,
    github: { repo: 'o/r', number: 12, url: '' },
    result: { pr_url: 'https://github.com/o/r/pull/3' },
  },
  {
    id: 'gh-15',
    source: 'github',
    title: 'Profile',
    spec: '',
    priority: 5,
    depends_on: ['gh-12', 'gh-3'],
    state: 'running',
    created_at: T0,
    started_at: T0,
    branch: 'ralph/gh-15',
    github: { repo: 'o/r', number: 15, url: '' },
    owner: { pid: 9, host: 'h' },
  },
  { id: 't1', source: 'task', title: 'tidy', spec: '', priority: 9, depends_on: [], state: 'skipped', created_at: T0, reason: 'dependency t0 failed' },
  { id: 't2', source: 'task', title: 'docs', spec: '', priority: 5, depends_on: [], state: 'running', created_at: T0 },
];

describe('queue lines', () => {
  it('lists every item in aligned columns, with its pull request or reason', () => {
    expect(renderQueueList(items, (item) => item.id === 't2')).toBe(
      [
        'ID     PRI  STATE                  AFTER       TITLE',
        'gh-12  P1   completed              -           Fix login (#12) — https://github.com/o/r/pull/3',
        'gh-15  P5   running                gh-12,gh-3  Profile (#15)',
        't1     P9   skipped                -           tidy — dependency t0 failed',
        't2     P5   running (interrupted)  -           docs',
        '',
      ].join('\n'),
    );
  });

  it('sums up the states, the running items and what is next', () => {
    const text = renderQueueStatus(summarizeQueue(items), Date.parse(T0) + 90_000, (item) => item.id === 't2');
    expect(text).toBe(
      [
        'Queue: 4 items — 0 pending, 2 running, 1 completed, 0 failed, 1 skipped',
        '  running gh-15: Profile (on ralph/gh-15, for 90s)',
        '  running t2: docs (interrupted: its run is gone; the next change to the queue puts it back to pending)',
        'Next: nothing pending',
        '',
      ].join('\n'),
    );
  });
});
