import { execaSync } from 'execa';
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QueueItem } from '../../../src/core/queue/queue-item.js';
import { RalphError } from '../../../src/errors.js';
import { claimNextItem, recordItemEnd, recoverQueue } from '../../../src/features/queue/queue-claims.js';
import { ralphPaths } from '../../../src/state/paths.js';
import { readQueue } from '../../../src/state/queue-store.js';
import { tempDir } from '../../helpers/temp-dir.js';

const NOW = Date.parse('2026-03-01T10:00:00Z');

function item(id: string, extra: Partial<QueueItem> = {}): QueueItem {
  return { id, source: 'task', title: id, spec: id, priority: 5, depends_on: [], state: 'pending', created_at: '2026-03-01T09:00:00Z', ...extra };
}

function project(items: QueueItem[]): string {
  const dir = tempDir('queue-claims-');
  mkdirSync(join(dir, '.ralph'));
  writeFileSync(join(dir, '.ralph', 'queue.json'), JSON.stringify({ version: 1, items }));
  return dir;
}

describe('a runner taking items from the queue', () => {
  it('takes items by priority after their dependencies, records their end, and skips what a failure blocks', async () => {
    const paths = ralphPaths(project([item('a'), item('b', { depends_on: ['a'] }), item('c', { priority: 1 })]));
    const notices: string[] = [];
    const options = { nowMs: NOW, notice: (m: string) => notices.push(m) };
    expect((await claimNextItem(paths, options)).item).toMatchObject({
      id: 'c',
      state: 'running',
      owner: { pid: process.pid, host: hostname() },
      branch: 'ralph/c',
      worktree: '.ralph/worktrees/c',
    });
    expect((await claimNextItem(paths, options)).item?.id).toBe('a');
    expect((await claimNextItem(paths, options)).item).toBeUndefined();
    await recordItemEnd(paths, 'c', 'completed', { exit_reason: 'plan_complete', exit_code: 0, cost: 0.12, iterations: 2, branch: 'ralph/c' }, NOW + 1000);
    await recordItemEnd(paths, 'a', 'failed', { exit_reason: 'circuit_open', exit_code: 3, error: 'no progress' }, NOW + 2000);
    expect(await claimNextItem(paths, options)).toEqual({ item: undefined, skipped: [{ id: 'b', reason: 'dependency a failed' }] });
    expect(notices).toEqual(['b skipped: dependency a failed']);
    const stored = readQueue(paths).items;
    expect(stored.map((i) => [i.id, i.state])).toEqual([
      ['a', 'failed'],
      ['b', 'skipped'],
      ['c', 'completed'],
    ]);
    expect(stored[2]).toMatchObject({ started_at: '2026-03-01T10:00:00.000Z', finished_at: '2026-03-01T10:00:01.000Z', result: { cost: 0.12, iterations: 2 } });
    expect(stored[2]?.owner).toBeUndefined();
    expect(stored[0]?.reason).toBe('no progress');
  });

  it('refuses a queue with a cycle (exit 2) and an end for an item that is gone', async () => {
    const paths = ralphPaths(project([item('a', { depends_on: ['b'] }), item('b', { depends_on: ['a'] })]));
    const error = (await claimNextItem(paths, { nowMs: NOW }).catch((e: unknown) => e)) as RalphError;
    expect(error.message).toBe('The queue has a dependency cycle (a → b → a); none of its items can start.');
    expect(error.exitCode).toBe(2);
    await expect(recordItemEnd(paths, 'zz', 'completed', {}, NOW)).rejects.toThrow(/zz is no longer in the queue/);
  });

  it("recovers a dead run's items and leaves a live one's", async () => {
    const gone = execaSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout;
    const paths = ralphPaths(
      project([
        item('a', { state: 'running', owner: { pid: Number(gone), host: hostname() }, started_at: '2026-03-01T09:30:00Z' }),
        item('b', { state: 'running', owner: { pid: process.pid, host: hostname() } }),
        item('c', { state: 'running', owner: { pid: 1234567, host: 'another-machine' } }),
      ]),
    );
    expect(await recoverQueue(paths)).toEqual(['a']);
    expect(readQueue(paths).items.map((i) => i.state)).toEqual(['pending', 'running', 'running']);
    expect(await recoverQueue(paths)).toEqual([]);
  });
});
