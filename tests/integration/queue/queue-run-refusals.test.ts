// ralph queue run refuses what it cannot do before any loop starts, saying what to do instead.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, initTestRepo } from '../../helpers/git-repo.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { addTasks, branches, queueCli, queueProject } from './queue-run-helpers.js';

describe('ralph queue run: refusals', () => {
  it('with nothing pending, says so and ends (exit 0)', async () => {
    const project = queueProject();
    const run = await queueCli(['run'], project);
    expect(run.exitCode).toBe(0);
    expect(String(run.stderr)).toBe('ralph queue: nothing to run: no pending items (ralph queue add puts work in the queue)');
  });

  it('outside git, and before the first commit (exit 2)', async () => {
    const plain = tempDir('queue-plain-');
    await addTasks(plain, ['alpha']);
    const outside = await queueCli(['run'], plain);
    expect(outside.exitCode).toBe(2);
    expect(String(outside.stderr)).toContain('is not a git repository; ralph queue run gives every item a git worktree and branch of its own.');
    expect(String(outside.stderr)).toContain('Run git init, commit once, then run the queue.');

    const fresh = tempDir('queue-fresh-');
    initTestRepo(fresh);
    await addTasks(fresh, ['alpha']);
    const empty = await queueCli(['run'], fresh);
    expect(empty.exitCode).toBe(2);
    expect(String(empty.stderr)).toContain('ralph queue run needs a first commit: every item works on a branch made from it.');
  });

  it('--pr on a detached HEAD (exit 2), and --pr without a GitHub repository to name (exit 2)', async () => {
    const project = queueProject();
    await addTasks(project, ['alpha']);
    git(project, 'checkout', '-q', '--detach');
    const detached = await queueCli(['run', '--pr', '--repo', 'o/r'], project);
    expect(detached.exitCode).toBe(2);
    expect(String(detached.stderr)).toContain('--pr needs a branch to open pull requests against, and HEAD is detached.');
    git(project, 'checkout', '-q', 'main');
    const noRepo = await queueCli(['run', '--pr'], project);
    expect(noRepo.exitCode).toBe(2);
    expect(String(noRepo.stderr)).toContain('No GitHub repository: --repo is not given and this project has no `origin` remote.');
    expect(branches(project)).toEqual(['main']);
  });

  it('a bad loop flag or .ralphrc value is refused before any worktree is made', async () => {
    const project = queueProject();
    await addTasks(project, ['alpha']);
    const badCost = await queueCli(['run', '--max-cost', 'lots'], project);
    expect(badCost.exitCode).toBe(2);
    expect(String(badCost.stderr)).toMatch(/--max-cost/);
    writeFileSync(join(project, '.ralphrc'), 'MAX_CALLS_PER_HOUR=many\n');
    const badRc = await queueCli(['run'], project);
    expect(badRc.exitCode).toBe(2);
    expect(String(badRc.stderr)).toMatch(/MAX_CALLS_PER_HOUR/);
    expect(branches(project)).toEqual(['main']);
  });
});
