import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QueueItem } from '../../../../src/core/queue/queue-item.js';
import { readRunningLoop } from '../../../../src/features/queue/running-loops.js';
import { tempDir } from '../../../helpers/temp-dir.js';

function item(worktree: string): QueueItem {
  return {
    id: 't1',
    source: 'task',
    title: 'Fix it',
    spec: 'Fix it',
    priority: 5,
    depends_on: [],
    state: 'running',
    created_at: '2026-03-01T11:00:00Z',
    worktree,
  };
}

/** A loop's status.json at `dir`/.ralph. */
function loopStatus(dir: string): void {
  mkdirSync(join(dir, '.ralph'), { recursive: true });
  writeFileSync(join(dir, '.ralph', 'status.json'), JSON.stringify({ status: 'running', loop_count: 4, last_action: 'editing', totals: { cost_usd: 1.5 } }));
}

describe('readRunningLoop', () => {
  it("reads the loop in the item's worktree under .ralph/", () => {
    const project = tempDir('ralph-running-loops-');
    loopStatus(join(project, '.ralph', 'worktrees', 't1'));
    expect(readRunningLoop(project, item('.ralph/worktrees/t1'))).toMatchObject({ loop: 4, state: 'running', costUsd: 1.5, lastAction: 'editing' });
  });

  it('never reads a worktree the queue file places outside the project', () => {
    const base = tempDir('ralph-running-loops-');
    const project = join(base, 'project');
    mkdirSync(join(project, '.ralph'), { recursive: true });
    loopStatus(join(base, 'elsewhere'));
    expect(readRunningLoop(project, item('../elsewhere'))).toMatchObject({ loop: 0, state: 'starting', costUsd: 0 });
  });
});
