import { describe, expect, it } from 'vitest';
import { describeFollow, type QueueFollow } from '../../src/core/queue/follow/follow-record.js';
import type { QueueItem } from '../../src/core/queue/queue-item.js';
import { summarizeQueue } from '../../src/core/queue/queue-summary.js';
import { renderQueueList, renderQueueStatus } from '../../src/ui/queue-lines.js';
import { runningLoopLine } from '../../src/ui/queue-loops.js';

const follow: QueueFollow = {
  round: 2,
  max_rounds: 4,
  pr_number: 101,
  commit: '28041d7ddb9d0123456789abcdef012345678901',
  state: 'waiting',
  checks: [
    { name: 'test', state: 'pending' },
    { name: 'lint', state: 'success' },
  ],
  updated_at: '2026-01-01T10:00:00Z',
};

const item: QueueItem = {
  id: 't1',
  source: 'task',
  title: 'alpha',
  spec: 'alpha',
  priority: 5,
  depends_on: [],
  state: 'running',
  created_at: '2026-01-01T09:00:00Z',
  branch: 'ralph/t1',
  result: { pr_url: 'https://github.com/o/r/pull/101' },
  follow,
};

describe('what a followed pull request shows', () => {
  it.each<[string, Partial<QueueFollow>, string]>([
    ['waiting', {}, 'round 2/4, waiting for checks on 28041d7ddb9d: test pending, lint success'],
    ['fixing', { state: 'fixing', checks: [] }, 'round 2/4, fixing on 28041d7ddb9d'],
    ['passed', { state: 'passed', checks: [{ name: 'test', state: 'success' }] }, 'round 2/4, checks passed on 28041d7ddb9d: test success'],
    ['no checks', { state: 'no-checks', checks: [] }, 'round 2/4, no checks on 28041d7ddb9d'],
  ])('%s', (_, change, text) => {
    expect(describeFollow({ ...follow, ...change })).toBe(text);
  });

  it('ralph queue status names the pull request, its round and checks under the running item', () => {
    expect(renderQueueStatus(summarizeQueue([item]), Date.parse('2026-01-01T10:00:00Z'), () => false)).toContain(
      '    pull request #101: round 2/4, waiting for checks on 28041d7ddb9d: test pending, lint success\n',
    );
  });

  it('ralph queue list adds them to the item', () => {
    expect(renderQueueList([item], () => false)).toContain('alpha — https://github.com/o/r/pull/101 (round 2/4, waiting for checks on 28041d7ddb9d');
  });

  it("the monitor's loop line shows them instead of the loop's last action", () => {
    const line = runningLoopLine({
      id: 't1',
      title: 'alpha',
      branch: 'ralph/t1',
      loop: 1,
      state: 'completed',
      costUsd: 0.01,
      costEstimated: false,
      lastAction: 'Worked.',
      follow: describeFollow(follow),
    });
    expect(line).toBe('t1  loop 1  completed  $0.0100  round 2/4, waiting for checks on 28041d7ddb9d: test pending, lint success');
  });
});
