// ralph queue run through the built CLI: real git worktrees, branches, commits and merges in
// temporary repositories; the agent is the mock backend, one scripted answer per item.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../../helpers/git-repo.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { addTasks, branches, filesOnBranch, mockFlags, queueCli, queueItems, queueProject, worktreeList, writeItemScript } from './queue-run-helpers.js';

const THREE = ['alpha', 'beta', 'gamma'];
const task = (name: string): string => `>>${name} :: verify:"test -f ${name}.txt"`;

describe('ralph queue run', () => {
  it('runs three items at once in three worktrees and branches, and leaves the user’s tree, index and HEAD as they were', async () => {
    const project = queueProject({ 'README.md': '# project\n', 'src/app.txt': 'v1\n' });
    const script = writeItemScript(THREE.map((name) => ({ trigger: name, files: { [`${name}.txt`]: `${name} done\n` }, delayMs: 300 })));
    await addTasks(project, THREE.map(task));
    // The user is in the middle of something: an unstaged edit, a staged file, an untracked file.
    writeFileSync(join(project, 'README.md'), '# project\nmy unsaved edit\n');
    writeFileSync(join(project, 'staged.txt'), 'staged bytes\n');
    git(project, 'add', 'staged.txt');
    writeFileSync(join(project, 'notes.txt'), 'untracked\n');
    const before = {
      head: git(project, 'rev-parse', 'HEAD'),
      status: git(project, 'status', '--porcelain'),
      index: readFileSync(join(project, '.git', 'index')),
      readme: readFileSync(join(project, 'README.md')),
      staged: git(project, 'diff', '--cached'),
    };

    const run = await queueCli(['run', '--parallel', '3', ...mockFlags(script)], project);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    // In the order they finished.
    expect(String(run.stdout)).toMatch(/^completed: (t[123]) (?!\1)(t[123]) (?!\1|\2)t[123]\nfailed: -$/);

    expect(git(project, 'rev-parse', 'HEAD')).toBe(before.head);
    expect(git(project, 'status', '--porcelain')).toBe(before.status);
    expect(readFileSync(join(project, '.git', 'index')).equals(before.index)).toBe(true);
    expect(readFileSync(join(project, 'README.md')).equals(before.readme)).toBe(true);
    expect(git(project, 'diff', '--cached')).toBe(before.staged);
    expect(before.status).not.toContain('worktrees');

    const items = queueItems(project);
    expect(items.map((i) => [i.id, i.state, i.branch, i.result?.exit_code, i.result?.iterations])).toEqual([
      ['t1', 'completed', 'ralph/t1', 0, 1],
      ['t2', 'completed', 'ralph/t2', 0, 1],
      ['t3', 'completed', 'ralph/t3', 0, 1],
    ]);
    expect(branches(project)).toEqual(['main', 'ralph/t1', 'ralph/t2', 'ralph/t3']);
    THREE.forEach((name, index) => {
      const branch = `ralph/t${index + 1}`;
      // The item's work is one commit by the user on its branch; Ralph's state files are not in it.
      expect(filesOnBranch(project, branch)).toEqual(['README.md', `${name}.txt`, 'src/app.txt']);
      expect(git(project, 'log', '-1', '--format=%an <%ae>|%s', branch).trim()).toBe(`Ralph Test <ralph-test@example.invalid>|ralph(t${index + 1}): ${name}`);
      expect(git(project, 'rev-parse', `${branch}~1`)).toBe(before.head);
    });
    // Finished items' worktrees are gone; git's list holds only the user's tree.
    expect(worktreeList(project)).toEqual([project]);
    expect(existsSync(join(project, '.ralph', 'worktrees', 't1'))).toBe(false);
    expect(git(project, 'status', '--porcelain', '--untracked-files=all')).not.toContain('.ralph/worktrees');
  });

  it('--merge brings completed branches back one at a time; a conflict is aborted and named, never half merged', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    const script = writeItemScript([
      { trigger: 'alpha', files: { 'alpha.txt': 'alpha\n', 'shared.txt': 'from alpha\n' } },
      { trigger: 'beta', files: { 'beta.txt': 'beta\n', 'shared.txt': 'from beta\n' } },
      { trigger: 'gamma', files: { 'gamma.txt': 'gamma\n' } },
    ]);
    await addTasks(project, THREE.map(task));
    const run = await queueCli(['run', '--parallel', '1', '--merge', ...mockFlags(script)], project);
    expect(run.exitCode, String(run.stderr)).toBe(1);
    expect(String(run.stdout)).toBe('completed: t1 t2 t3\nfailed: -\nmerged: t1 t3\nnot merged: t2');
    expect(String(run.stderr)).toContain('t2: not merged (it conflicts with main); ralph/t2 is kept');
    expect(git(project, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(project, '.git', 'MERGE_HEAD'))).toBe(false);
    expect(readFileSync(join(project, 'shared.txt'), 'utf8')).toBe('from alpha\n');
    expect(existsSync(join(project, 'gamma.txt'))).toBe(true);
    expect(existsSync(join(project, 'beta.txt'))).toBe(false);
    // --no-ff: every merge is a merge commit naming the branch.
    expect(git(project, 'log', '--merges', '--format=%s', 'main').trim().split('\n')).toEqual(['Merge ralph/t3: gamma', 'Merge ralph/t1: alpha']);
    expect(branches(project)).toContain('ralph/t2');
  });

  it('--merge refuses a tree with uncommitted changes and keeps every branch', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    const script = writeItemScript([{ trigger: 'alpha', files: { 'alpha.txt': 'alpha\n' } }]);
    await addTasks(project, [task('alpha')]);
    writeFileSync(join(project, 'README.md'), 'edited\n');
    const run = await queueCli(['run', '--merge', ...mockFlags(script)], project);
    expect(run.exitCode).toBe(1);
    expect(String(run.stderr)).toContain('t1: not merged (the work tree has uncommitted changes; commit or stash them, then merge by hand); ralph/t1 is kept');
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('edited\n');
    expect(git(project, 'log', '--format=%s', 'main').trim()).toBe('initial');
  });

  it('records a failed loop with its reason, commits what it did, and starts dependants only after success', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    // beta never passes its verify command: its one attempt fails.
    const script = writeItemScript(
      [
        { trigger: 'alpha', files: { 'alpha.txt': 'a\n' } },
        { trigger: 'beta', files: { 'half.txt': 'half\n' }, done: false },
      ],
      2,
    );
    await addTasks(project, [task('alpha'), task('beta')]);
    const after = await queueCli(['add', task('gamma'), '--after', 't2'], project);
    expect(after.exitCode).toBe(0);
    const run = await queueCli(['run', ...mockFlags(script, 2)], project);
    expect(run.exitCode).toBe(1);
    const items = queueItems(project);
    expect(items.map((i) => [i.id, i.state])).toEqual([
      ['t1', 'completed'],
      ['t2', 'failed'],
      ['t3', 'skipped'],
    ]);
    expect(items[1]?.result).toMatchObject({ exit_code: 6, exit_reason: 'verify_aborted', iterations: 1, branch: 'ralph/t2' });
    expect(items[1]?.result?.error).toBe('the loop ended with exit code 6 (verify_aborted)');
    expect(String(run.stderr)).toContain('t3 skipped: ');
    expect(filesOnBranch(project, 'ralph/t2')).toContain('half.txt');
    expect(branches(project)).not.toContain('ralph/t3');
  });

  it('a stray folder where an item’s worktree goes fails that item with what to do, and never leads a worktree through a link', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    const script = writeItemScript(THREE.map((name) => ({ trigger: name, files: { [`${name}.txt`]: 'x\n' } })));
    await addTasks(project, [task('alpha'), task('beta')]);
    mkdirSync(join(project, '.ralph', 'worktrees', 't1'), { recursive: true });
    writeFileSync(join(project, '.ralph', 'worktrees', 't1', 'mine.txt'), 'keep me\n');
    const run = await queueCli(['run', ...mockFlags(script)], project);
    expect(run.exitCode).toBe(1);
    const [t1, t2] = queueItems(project);
    expect(t1).toMatchObject({
      state: 'failed',
      reason:
        '.ralph/worktrees/t1 exists but is not a git worktree; it is left as it is. Move it aside or remove it (rm -r .ralph/worktrees/t1), then run the queue again.',
    });
    expect(t2?.state).toBe('completed');
    expect(readFileSync(join(project, '.ralph', 'worktrees', 't1', 'mine.txt'), 'utf8')).toBe('keep me\n');

    const linked = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    await addTasks(linked, [task('alpha')]);
    const outside = tempDir('queue-outside-');
    symlinkSync(outside, join(linked, '.ralph', 'worktrees'));
    const refused = await queueCli(['run', ...mockFlags(script)], linked);
    expect(refused.exitCode).toBe(1);
    expect(queueItems(linked)[0]?.reason).toBe(
      '.ralph/worktrees is not a folder of this project (a symbolic link or a file); no worktree is made through it. Remove .ralph/worktrees, then run the queue again.',
    );
    expect(readdirSync(outside)).toEqual([]);
  });

  it('an issue or PRD task is never written through a .ralph the repository holds as a link', async () => {
    const project = queueProject({ 'README.md': '# project\n', 'prd.md': '# PRD\n\n- [ ] write alpha.txt\n' });
    const outside = tempDir('queue-outside-');
    symlinkSync(outside, join(project, '.ralph'));
    git(project, 'add', '.ralph');
    git(project, 'commit', '-q', '-m', 'a link');
    // The user's own tree has a real .ralph again; the commit the worktree is made from has the link.
    rmSync(join(project, '.ralph'));
    mkdirSync(join(project, '.ralph'));
    expect((await queueCli(['add', '--prd', 'prd.md'], project)).exitCode).toBe(0);
    const run = await queueCli(['run', ...mockFlags(writeItemScript([{ trigger: 'alpha', files: { 'alpha.txt': 'a\n' } }]))], project);
    expect(run.exitCode).toBe(1);
    expect(queueItems(project)[0]?.reason).toMatch(
      /^\S+: \.ralph in its worktree is not a folder \(a symbolic link or a file in the repository\); the task is not written through it\. Remove/,
    );
    expect(readdirSync(outside)).toEqual([]);
  });

  it('--parallel 3 --merge: three loops at once, then all three branches merged into the starting branch', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    const script = writeItemScript(THREE.map((name) => ({ trigger: name, files: { [`${name}.txt`]: `${name}\n` }, delayMs: 300 })));
    await addTasks(project, THREE.map(task));
    const run = await queueCli(['run', '--parallel', '3', '--merge', ...mockFlags(script)], project);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(String(run.stdout)).toMatch(/\nmerged: t\d t\d t\d$/);
    expect(git(project, 'status', '--porcelain')).toBe('');
    for (const name of THREE) expect(readFileSync(join(project, `${name}.txt`), 'utf8')).toBe(`${name}\n`);
    expect(git(project, 'log', '--merges', '--format=%s', 'main').trim().split('\n')).toHaveLength(3);
  });
});
