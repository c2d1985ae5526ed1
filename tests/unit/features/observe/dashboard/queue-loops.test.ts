import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readQueueLoops } from '../../../../../src/features/observe/dashboard/queue-loops.js';
import { runControl } from '../../../../../src/features/observe/dashboard/dashboard-controls.js';
import { listLoops, readDashboardState } from '../../../../../src/features/observe/dashboard/read-dashboard.js';
import { ralphPaths } from '../../../../../src/state/paths.js';
import { tempDir } from '../../../../helpers/temp-dir.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

function project(): string {
  const dir = tempDir('ralph-dash-queue-');
  mkdirSync(join(dir, '.ralph', 'logs'), { recursive: true });
  return dir;
}

/** A worktree of the queue with its own `.ralph/` and a finished status. */
function worktree(dir: string, id: string, exitReason: string, cost: number): void {
  const ralph = join(dir, '.ralph', 'worktrees', id, '.ralph');
  mkdirSync(join(ralph, 'logs'), { recursive: true });
  writeFileSync(
    join(ralph, 'status.json'),
    JSON.stringify({ status: 'completed', exit_reason: exitReason, exit_code: 0, loop_count: 2, backend: 'mock', totals: { cost_usd: cost } }),
  );
  writeFileSync(join(ralph, 'logs', 'metrics.jsonl'), `${JSON.stringify({ type: 'iteration', loop: 1, success: true, cost_usd: cost })}\n`);
}

const queue = (dir: string, value: unknown): void =>
  writeFileSync(join(dir, '.ralph', 'queue.json'), typeof value === 'string' ? value : JSON.stringify(value));

/** A queue item as `ralph queue` writes it. */
function item(id: string, state: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, source: 'task', title: id, spec: id, priority: 5, depends_on: [], state, created_at: '2026-03-01T11:00:00Z', ...extra };
}

describe('the loops of a queue', () => {
  it('shows every item with a worktree as a loop, reading its own .ralph/', () => {
    const dir = project();
    worktree(dir, 'fix-auth', 'plan_complete', 0.5);
    worktree(dir, 'add-api', 'max_loops', 1.25);
    queue(dir, {
      version: 1,
      items: [
        item('fix-auth', 'completed', { title: 'Fix the login', branch: 'ralph/fix-auth', worktree: '.ralph/worktrees/fix-auth' }),
        item('add-api', 'running', { title: 'Add the API', branch: 'ralph/add-api', worktree: '.ralph/worktrees/add-api' }),
        item('later', 'pending', { title: 'Not started' }),
      ],
    });
    const state = readDashboardState(dir, NOW);
    expect(state.notice).toBeNull();
    expect(state.loops.map((l) => [l.id, l.title, l.queueState, l.location])).toEqual([
      ['main', expect.any(String), null, '.'],
      ['fix-auth', 'Fix the login', 'completed', join('.ralph', 'worktrees', 'fix-auth')],
      ['add-api', 'Add the API', 'running', join('.ralph', 'worktrees', 'add-api')],
    ]);
    expect(state.loops[1]).toMatchObject({ started: true, state: { exitReason: 'plan_complete' }, totals: { costUsd: 0.5 } });
    expect(state.loops[2]).toMatchObject({ started: true, state: { exitReason: 'max_loops' }, totals: { costUsd: 1.25 }, iterations: [{ costUsd: 1.25 }] });
  });

  it('a finished run whose worktree was removed stays visible with the outcome the queue recorded; a pending item without one does not show', async () => {
    const dir = project();
    queue(dir, {
      version: 1,
      items: [
        item('fix-auth', 'completed', {
          title: 'Fix the login',
          branch: 'ralph/fix-auth',
          worktree: '.ralph/worktrees/fix-auth',
          finished_at: '2026-03-01T11:40:00Z',
          result: { exit_reason: 'project_complete', exit_code: 0, cost: 1.5, iterations: 4, pr_url: 'https://example.test/pr/7' },
        }),
        item('add-api', 'failed', { title: 'Add the API', result: { exit_reason: 'max_loops', exit_code: 7, error: 'no progress' } }),
        item('later', 'pending'),
      ],
    });
    const state = readDashboardState(dir, NOW);
    expect(state.loops.map((l) => l.id)).toEqual(['main', 'fix-auth', 'add-api']);
    expect(state.loops[1]).toMatchObject({
      started: true,
      state: { status: 'completed', label: 'completed', tone: 'good', exitReason: 'project_complete', exitCode: 0, loopCount: 4, finished: true },
      totals: { costUsd: 1.5 },
      outcome: { state: 'completed', branch: 'ralph/fix-auth', prUrl: 'https://example.test/pr/7', worktreeKept: false, finishedAt: '2026-03-01T11:40:00Z' },
    });
    expect(state.loops[2]).toMatchObject({ state: { label: 'failed', tone: 'bad', exitCode: 7 }, outcome: { error: 'no progress', worktreeKept: false } });
    // Its buttons have no loop to act on.
    const record = listLoops(dir).loops.find((l) => l.id === 'add-api');
    if (record === undefined) throw new Error('add-api is not listed');
    expect(
      await runControl(
        record,
        { action: 'reset-circuit' },
        () => NOW,
        () => undefined,
      ),
    ).toEqual({
      status: 409,
      ok: false,
      message: "The queue item 'add-api' has finished and its worktree was removed: there is no loop to control.",
    });
  });

  it('without a queue file: the project loop alone, no notice', () => {
    const dir = project();
    const state = readDashboardState(dir, NOW);
    expect(state.loops.map((l) => l.id)).toEqual(['main']);
    expect(state.notice).toBeNull();
  });

  it.each([
    ['not JSON', '{"version": 1, "items": [', /not valid JSON/],
    ['another version', { version: 2, items: [] }, /version is not 1/],
    ['items not a list', { version: 1, items: {} }, /items is not a list/],
    ['a list', [], /the queue is not a JSON object/],
    ['an item without its fields', { version: 1, items: [{ id: 'x', worktree: '.ralph/worktrees/x' }] }, /items\[0\]/],
  ])('a corrupt queue file (%s): the project loop alone and a notice', (_name, content, notice) => {
    const dir = project();
    queue(dir, content);
    const state = readDashboardState(dir, NOW);
    expect(state.loops.map((l) => l.id)).toEqual(['main']);
    expect(state.notice).toMatch(notice);
    expect(state.notice).toContain("showing this project's loop only");
  });

  it('never reads a worktree outside the project or through a link, and shows a repeated id once', () => {
    const dir = project();
    const outside = tempDir('ralph-dash-outside-');
    mkdirSync(join(outside, '.ralph'), { recursive: true });
    mkdirSync(join(dir, '.ralph', 'worktrees'), { recursive: true });
    symlinkSync(outside, join(dir, '.ralph', 'worktrees', 'linked'));
    worktree(dir, 'ok', 'plan_complete', 0);
    queue(dir, {
      version: 1,
      items: [
        item('escape', 'running', { worktree: '../../' }),
        item('absolute', 'running', { worktree: outside }),
        item('linked', 'running', { worktree: '.ralph/worktrees/linked' }),
        item('main', 'running', { worktree: '.ralph/worktrees/ok' }),
        item('ok', 'completed', { worktree: '.ralph/worktrees/ok' }),
        item('ok', 'completed', { worktree: '.ralph/worktrees/ok' }),
      ],
    });
    const read = readQueueLoops(ralphPaths(dir));
    expect(read.loops.map((l) => l.id)).toEqual(['ok']);
    expect(read.notice).toBe('queue items with a repeated id are not shown: main, ok');
  });
});
