// ralph queue run with --rollback-on-fail: one loop's rollback never moves a sibling loop's branch.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../../helpers/git-repo.js';
import { addTasks, filesOnBranch, mockFlags, queueCli, queueItems, queueProject, writeItemScript } from './queue-run-helpers.js';

describe('ralph queue run --parallel 2 --merge --rollback-on-fail', () => {
  it("one item fails verify and rolls back: the other item's finished branch survives and is merged with its file", async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    const start = git(project, 'rev-parse', 'HEAD').trim();
    const script = writeItemScript([
      // Slow, and its verify never passes: it rolls back after beta has finished and committed.
      { trigger: 'alpha', files: { 'alpha.txt': 'alpha\n' }, delayMs: 4000, done: false },
      { trigger: 'beta', files: { 'beta.txt': 'beta\n' } },
    ]);
    await addTasks(project, ['>>alpha :: verify:"test -f never.txt"', '>>beta :: verify:"test -f beta.txt"']);
    const run = await queueCli(['run', '--parallel', '2', '--merge', '--rollback-on-fail', ...mockFlags(script, 1)], project, undefined, 90_000);
    const stderr = String(run.stderr);
    const items = queueItems(project);
    expect(items.find((i) => i.id === 't2')?.state, stderr).toBe('completed');
    expect(items.find((i) => i.id === 't1')?.state, stderr).not.toBe('completed');
    // beta's branch still holds its commit, and main has beta's file.
    expect(filesOnBranch(project, 'ralph/t2')).toContain('beta.txt');
    expect(git(project, 'rev-parse', 'ralph/t2').trim()).not.toBe(start);
    expect(String(run.stdout)).toContain('merged: t2');
    expect(readFileSync(join(project, 'beta.txt'), 'utf8')).toBe('beta\n');
    expect(git(project, 'ls-tree', '-r', '--name-only', 'main')).toContain('beta.txt');
    // alpha's failed attempt is not on any branch.
    expect(git(project, 'ls-tree', '-r', '--name-only', 'main')).not.toContain('alpha.txt');
  }, 120_000);
});
