import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readQueueLoops } from '../../../../src/features/dashboard/queue-loops.js';
import { readDashboardState } from '../../../../src/features/dashboard/read-dashboard.js';
import { ralphPaths } from '../../../../src/state/paths.js';
import { tempDir } from '../../../helpers/temp-dir.js';

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

describe('the loops of a queue', () => {
  it('shows every item with a worktree as a loop, reading its own .ralph/', () => {
    const dir = project();
    worktree(dir, 'fix-auth', 'plan_complete', 0.5);
    worktree(dir, 'add-api', 'max_loops', 1.25);
    queue(dir, {
      version: 1,
      items: [
        { id: 'fix-auth', title: 'Fix the login', state: 'completed', branch: 'ralph/fix-auth', worktree: '.ralph/worktrees/fix-auth' },
        { id: 'add-api', title: 'Add the API', state: 'running', branch: 'ralph/add-api', worktree: '.ralph/worktrees/add-api' },
        { id: 'later', title: 'Not started', state: 'pending' },
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

  it('without a queue file: the project loop alone, no notice', () => {
    const dir = project();
    const state = readDashboardState(dir, NOW);
    expect(state.loops.map((l) => l.id)).toEqual(['main']);
    expect(state.notice).toBeNull();
  });

  it.each([
    ['not JSON', '{"version": 1, "items": [', /is not valid JSON/],
    ['another version', { version: 2, items: [] }, /is not a version 1 queue/],
    ['items not a list', { version: 1, items: {} }, /is not a version 1 queue/],
    ['a list', [], /is not a version 1 queue/],
  ])('a corrupt queue file (%s): the project loop alone and a notice', (_name, content, notice) => {
    const dir = project();
    queue(dir, content);
    const state = readDashboardState(dir, NOW);
    expect(state.loops.map((l) => l.id)).toEqual(['main']);
    expect(state.notice).toMatch(notice);
    expect(state.notice).toContain("showing this project's loop only");
  });

  it('never reads a worktree outside the project, through a link, or with a bad id', () => {
    const dir = project();
    const outside = tempDir('ralph-dash-outside-');
    mkdirSync(join(outside, '.ralph'), { recursive: true });
    mkdirSync(join(dir, '.ralph', 'worktrees'), { recursive: true });
    symlinkSync(outside, join(dir, '.ralph', 'worktrees', 'linked'));
    worktree(dir, 'ok', 'plan_complete', 0);
    queue(dir, {
      version: 1,
      items: [
        { id: 'escape', state: 'running', worktree: '../../' },
        { id: 'absolute', state: 'running', worktree: outside },
        { id: 'linked', state: 'running', worktree: '.ralph/worktrees/linked' },
        { id: '../bad', state: 'running', worktree: '.ralph/worktrees/ok' },
        { id: 'main', state: 'running', worktree: '.ralph/worktrees/ok' },
        { id: 'ok', state: 'done', worktree: '.ralph/worktrees/ok' },
        { id: 'ok', state: 'done', worktree: '.ralph/worktrees/ok' },
      ],
    });
    const read = readQueueLoops(ralphPaths(dir));
    expect(read.loops.map((l) => l.id)).toEqual(['ok']);
    expect(read.notice).toBe('queue items with a missing, invalid or repeated id are not shown: ../bad, main, ok');
  });
});
