// What `ralph queue run` may never do to the user's own files and repository: overwrite an ignored or
// untracked file with a merge, delete ignored files with `queue clean`, or run an item in a folder that
// leads into another repository. Real git repositories, linked worktrees and the built CLI.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitRepo } from '../../helpers/git-repo.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { addTasks, mockFlags, queueCli, queueItems, queueProject, writeItemScript } from './queue-run-helpers.js';

const task = (name: string): string => `>>${name} :: verify:"test -f ${name}.txt"`;

describe('ralph queue run and clean leave the user’s own files alone', () => {
  it('--merge refuses a branch that adds a path the user has untracked or ignored, names it, and merges the others', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\nlocal.conf\n' });
    const script = writeItemScript([
      // The agent rewrote .gitignore, so its local.conf was committed on its branch.
      { trigger: 'alpha', files: { 'alpha.txt': 'alpha\n', 'local.conf': 'the agent’s\n', '.gitignore': '.ralph/\n' } },
      { trigger: 'beta', files: { 'beta.txt': 'beta\n' } },
      { trigger: 'gamma', files: { 'gamma.txt': 'gamma\n', 'notes/todo.txt': 'the agent’s notes\n' } },
    ]);
    await addTasks(project, ['alpha', 'beta', 'gamma'].map(task));
    writeFileSync(join(project, 'local.conf'), 'mine, ignored\n');
    mkdirSync(join(project, 'notes'));
    writeFileSync(join(project, 'notes', 'todo.txt'), 'mine, untracked\n');

    const run = await queueCli(['run', '--merge', ...mockFlags(script)], project);
    expect(run.exitCode, String(run.stderr)).toBe(1);
    expect(String(run.stdout)).toBe('completed: t1 t2 t3\nfailed: -\nmerged: t2\nnot merged: t1 t3');
    const stderr = String(run.stderr);
    expect(stderr).toContain(
      't1: not merged (it adds local.conf, which your work tree already has as a file git does not track (untracked or ignored); the merge would overwrite it. Move it aside, then merge by hand: git merge --no-ff ralph/t1); ralph/t1 is kept',
    );
    expect(stderr).toContain('t3: not merged (it adds notes/todo.txt, which your work tree already has');
    expect(readFileSync(join(project, 'local.conf'), 'utf8')).toBe('mine, ignored\n');
    expect(readFileSync(join(project, 'notes', 'todo.txt'), 'utf8')).toBe('mine, untracked\n');
    expect(readFileSync(join(project, '.gitignore'), 'utf8')).toBe('.ralph/\nlocal.conf\n');
    expect(readFileSync(join(project, 'beta.txt'), 'utf8')).toBe('beta\n');
    expect(existsSync(join(project, 'alpha.txt'))).toBe(false);
    expect(queueItems(project).map((item) => [item.id, item.state])).toEqual([
      ['t1', 'completed'],
      ['t2', 'completed'],
      ['t3', 'completed'],
    ]);
    // Both branches stay, with their work, for the user to merge once the files are out of the way.
    expect(git(project, 'show', 'ralph/t1:local.conf')).toBe('the agent’s\n');
    expect(git(project, 'show', 'ralph/t3:notes/todo.txt')).toBe('the agent’s notes\n');
  });

  it('an item folder that is a link, or a worktree of another repository, is refused by name; the other repository gets nothing', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    const other = gitRepo({ 'OTHER.md': '# another repository\n' }, tempDir('queue-other-'));
    const otherHead = git(other, 'rev-parse', 'HEAD').trim();
    const script = writeItemScript(['alpha', 'beta', 'gamma'].map((name) => ({ trigger: name, files: { [`${name}.txt`]: `${name}\n` } })));
    await addTasks(project, ['alpha', 'beta', 'gamma'].map(task));
    mkdirSync(join(project, '.ralph', 'worktrees'), { recursive: true });
    // t1's folder is a link into the other repository; t2's is a worktree of the other repository.
    symlinkSync(other, join(project, '.ralph', 'worktrees', 't1'));
    git(other, 'worktree', 'add', '-q', '-b', 'theirs', join(project, '.ralph', 'worktrees', 't2'));

    const run = await queueCli(['run', ...mockFlags(script)], project);
    expect(run.exitCode).toBe(1);
    const [t1, t2, t3] = queueItems(project);
    expect(t1).toMatchObject({
      state: 'failed',
      reason: `t1: .ralph/worktrees/t1 is a symbolic link (to ${other}), not a worktree of this repository; the item is not run there. Remove the link (rm .ralph/worktrees/t1; what it points to is not touched), then run the queue again.`,
    });
    expect(t2?.state).toBe('failed');
    expect(t2?.reason).toMatch(
      /^t2: \.ralph\/worktrees\/t2 belongs to another repository \(its git directory is .+\), not this one; the item is not run there\. Move it out of \.ralph\/worktrees\/, then run the queue again\.$/,
    );
    expect(t3?.state).toBe('completed');
    // Nothing ran, and nothing was committed, in the other repository.
    expect(git(other, 'rev-parse', 'main').trim()).toBe(otherHead);
    expect(git(other, 'rev-parse', 'theirs').trim()).toBe(otherHead);
    expect(git(other, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(readdirSync(join(project, '.ralph', 'worktrees', 't2')).sort()).toEqual(['.git', 'OTHER.md']);

    // ralph queue clean leaves both alone too.
    const clean = await queueCli(['clean'], project);
    expect(clean.exitCode).toBe(0);
    expect(String(clean.stderr)).toContain('t1 kept: .ralph/worktrees/t1 is a symbolic link');
    expect(String(clean.stderr)).toContain('t2 kept: .ralph/worktrees/t2 belongs to another repository');
    expect(git(other, 'worktree', 'list', '--porcelain')).toContain(join(project, '.ralph', 'worktrees', 't2'));
    expect(existsSync(join(other, 'OTHER.md'))).toBe(true);
  });

  it('queue clean keeps a worktree holding ignored files, names them, and deletes them only with --force', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n.env\nlogs/\n' });
    await addTasks(project, [task('alpha'), task('beta')]);
    // The worktrees an interrupted run left, as `ralph queue run` makes them; the user worked in t1's.
    const t1 = join(project, '.ralph', 'worktrees', 't1');
    const t2 = join(project, '.ralph', 'worktrees', 't2');
    git(project, 'worktree', 'add', '-q', '-b', 'ralph/t1', t1);
    git(project, 'worktree', 'add', '-q', '-b', 'ralph/t2', t2);
    writeFileSync(join(t1, '.env'), 'API_URL=http://localhost\n');
    mkdirSync(join(t1, 'logs'));
    writeFileSync(join(t1, 'logs', 'run.log'), 'a day of logs\n');
    mkdirSync(join(t2, '.ralph'));
    writeFileSync(join(t2, '.ralph', 'status.json'), '{}\n');

    const clean = await queueCli(['clean'], project);
    expect(clean.exitCode, String(clean.stderr)).toBe(0);
    expect(String(clean.stdout)).toBe('removed 1 worktree: t2');
    expect(String(clean.stderr)).toContain(
      't1 kept: it holds files git ignores, which removing it would delete: .env, logs/. Copy what you need out of .ralph/worktrees/t1, then run ralph queue clean --force',
    );
    expect(readFileSync(join(t1, '.env'), 'utf8')).toBe('API_URL=http://localhost\n');
    expect(readFileSync(join(t1, 'logs', 'run.log'), 'utf8')).toBe('a day of logs\n');
    expect(existsSync(t2)).toBe(false);

    const forced = await queueCli(['clean', '--force'], project);
    expect(forced.exitCode, String(forced.stderr)).toBe(0);
    expect(String(forced.stdout)).toBe('removed 1 worktree: t1');
    expect(String(forced.stderr)).toContain('t1: removed with its ignored files .env, logs/ (--force)');
    expect(existsSync(t1)).toBe(false);
    expect(git(project, 'branch', '--list', 'ralph/*')).toContain('ralph/t1');
  });

  it('ids are never given twice in a repository: after clear, and after the queue file is gone, a new task starts on a fresh branch', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    const script = writeItemScript(['alpha', 'beta', 'gamma'].map((name) => ({ trigger: name, files: { [`${name}.txt`]: `${name}\n` } })));
    await addTasks(project, [task('alpha')]);
    const first = await queueCli(['run', '--merge', ...mockFlags(script)], project);
    expect(first.exitCode, String(first.stderr)).toBe(0);
    const t1Tip = git(project, 'rev-parse', 'ralph/t1').trim();
    expect((await queueCli(['clear'], project)).exitCode).toBe(0);

    const added = await queueCli(['add', task('beta')], project);
    expect(String(added.stdout)).toBe('added t2 (P5): beta');
    const second = await queueCli(['run', ...mockFlags(script)], project);
    expect(second.exitCode, String(second.stderr)).toBe(0);
    expect(String(second.stderr)).toContain('t2 started in .ralph/worktrees/t2 on ralph/t2: beta');
    expect(String(second.stderr)).not.toContain('earlier worktree');
    // t2 starts from the commit the run started at (main, with t1 merged); t1's branch is as it was.
    expect(git(project, 'rev-parse', 'ralph/t2~1').trim()).toBe(git(project, 'rev-parse', 'main').trim());
    expect(git(project, 'rev-parse', 'ralph/t1').trim()).toBe(t1Tip);

    // The user deletes ralph/t2's branch: the queue still remembers t2 was given out.
    git(project, 'branch', '-D', 'ralph/t2');
    expect((await queueCli(['clear'], project)).exitCode).toBe(0);
    expect(String((await queueCli(['add', task('gamma')], project)).stdout)).toBe('added t3 (P5): gamma');

    // The queue file is moved aside: the branches left in the repository still hold their names.
    rmSync(join(project, '.ralph', 'queue.json'));
    expect(String((await queueCli(['add', task('gamma')], project)).stdout)).toBe('added t2 (P5): gamma');
    git(project, 'branch', 'ralph/t2', 'main');
    rmSync(join(project, '.ralph', 'queue.json'));
    expect(String((await queueCli(['add', task('gamma')], project)).stdout)).toBe('added t3 (P5): gamma');
  });
});
