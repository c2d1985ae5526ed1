import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExecaRunner } from '../../../src/infra/execa-runner.js';
import {
  createCheckpoint,
  dropCheckpoint,
  listCheckpoints,
  pruneCheckpoints,
  restoreCheckpoint,
  rollbackToCheckpoint,
  type Checkpoint,
} from '../../../src/infra/git-checkpoints.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { git, gitRepo, writeFiles } from '../../helpers/git-repo.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * Data safety on real repositories: a checkpoint must record every byte of the
 * pre-iteration state without touching it, and a rollback must bring every byte
 * back while keeping the discarded attempt reachable.
 */

const runner = createExecaRunner();
const workspace = (dir: string): GitWorkspace => new GitWorkspace(dir, runner);
let clock = Date.UTC(2026, 0, 6, 12, 0, 0);
const now = (): number => (clock += 1000);

type FileEntry = { type: 'file'; mode: string; content: string } | { type: 'link'; target: string };

/** Every file under `root` except .git (and .ralph unless asked), with content, exec bit and symlink targets. */
function readAll(root: string, withRalph = false): Record<string, FileEntry> {
  const out: Record<string, FileEntry> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      if (path === '.git' || (!withRalph && name === '.ralph')) continue;
      const full = join(root, path);
      const st = lstatSync(full);
      if (st.isSymbolicLink()) out[path] = { type: 'link', target: readlinkSync(full) };
      else if (st.isDirectory()) walk(path);
      else out[path] = { type: 'file', mode: (st.mode & 0o111) !== 0 ? 'x' : '-', content: readFileSync(full, 'latin1') };
    }
  };
  walk('');
  return out;
}

interface RepoState {
  files: Record<string, FileEntry>;
  status: string;
  index: string;
  cached: string;
  unstaged: string;
  head: string;
  branch: string;
  stash: string;
}

function gitMaybe(dir: string, ...args: string[]): string {
  try {
    return git(dir, ...args);
  } catch {
    return '(none)';
  }
}

function repoState(dir: string): RepoState {
  return {
    files: readAll(dir),
    status: git(dir, 'status', '--porcelain=v1', '--untracked-files=all', '--', '.', ':(exclude).ralph'),
    index: git(dir, 'ls-files', '-s'),
    cached: git(dir, 'diff', '--cached', '--binary'),
    unstaged: git(dir, 'diff', '--binary'),
    head: gitMaybe(dir, 'rev-parse', '-q', '--verify', 'HEAD'),
    branch: gitMaybe(dir, 'symbolic-ref', '-q', 'HEAD'),
    stash: git(dir, 'stash', 'list', '--format=%H %gs'),
  };
}

const IGNORE = 'node_modules/\n*.log\ndist/\n.ralph/.*\n.ralph/logs/\n';

/** A repository in the state the brief asks for: staged, unstaged, untracked and ignored files and a user stash. */
function dirtyRepo(): string {
  const dir = gitRepo({
    '.gitignore': IGNORE,
    'a.txt': 'a: committed\n',
    'src/b.txt': 'b: committed\n',
    'c.txt': 'c: committed\n',
    'gone.txt': 'gone: committed\n',
    'rm-staged.txt': 'rm-staged: committed\n',
    'run.sh': '#!/bin/sh\necho run\n',
    '.ralph/fix_plan.md': '- [ ] task one\n',
    'bin.dat': '\u0000\u0001\u0002binary\u00ff',
  });
  chmodSync(join(dir, 'run.sh'), 0o755);
  symlinkSync('a.txt', join(dir, 'link-to-a'));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'second');
  // The user's own stashes, made before Ralph ever runs.
  writeFiles(dir, { 'a.txt': 'a: user stash 1\n' });
  git(dir, 'stash', 'push', '-q', '-m', 'user work 1');
  writeFiles(dir, { 'wip.txt': 'untracked wip\n' });
  git(dir, 'stash', 'push', '-q', '-u', '-m', 'user work 2 with untracked');
  // The dirty tree.
  writeFiles(dir, { 'a.txt': 'a: staged\n' });
  git(dir, 'add', 'a.txt');
  writeFiles(dir, { 'a.txt': 'a: staged, then changed again\n', 'src/b.txt': 'b: unstaged change\n', 'staged-new.txt': 'new and staged\n' });
  git(dir, 'add', 'staged-new.txt');
  rmSync(join(dir, 'gone.txt'));
  git(dir, 'rm', '-q', 'rm-staged.txt');
  writeFiles(dir, {
    'untracked.txt': 'untracked\n',
    'notes/todo.md': 'untracked notes\n',
    'node_modules/pkg/index.js': 'module.exports = 1;\n',
    'debug.log': 'ignored log\n',
    'dist/bundle.js': 'built\n',
    '.ralph/status.json': '{"loop": 1}\n',
  });
  return dir;
}

/** What an agent might do in a failed iteration: edit, delete, create, chmod, commit, then keep going. */
function agentMakesAMess(dir: string): void {
  writeFiles(dir, { 'a.txt': 'a: agent\n', 'src/b.txt': 'b: agent\n', 'notes/todo.md': 'agent edited notes\n', 'new/feature.ts': 'export {};\n', 'src/new.ts': 'new\n' });
  rmSync(join(dir, 'c.txt'));
  rmSync(join(dir, 'untracked.txt'));
  rmSync(join(dir, 'link-to-a'));
  writeFileSync(join(dir, 'link-to-a'), 'now a file\n');
  chmodSync(join(dir, 'run.sh'), 0o644);
  writeFiles(dir, { '.ralph/fix_plan.md': '- [x] task one\n' });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'agent: claims the task is done');
  writeFiles(dir, { 'post-commit.txt': 'after the commit\n', 'a.txt': 'a: agent again\n', 'node_modules/agent-dep/index.js': 'dep\n', 'build.log': 'agent log\n' });
  git(dir, 'add', 'post-commit.txt');
}

async function checkpoint(dir: string, loop = 1): Promise<Checkpoint> {
  const result = await createCheckpoint(workspace(dir), { loop, now: now() });
  if (!result.ok) throw new Error(result.reason);
  return result.checkpoint;
}

describe('createCheckpoint', () => {
  it('records a dirty tree without touching the work tree, the index or the user\'s stash entries', async () => {
    const dir = dirtyRepo();
    const before = repoState(dir);
    const mtime = statSync(join(dir, 'a.txt')).mtimeMs;
    const indexBytes = readFileSync(join(dir, '.git', 'index'));
    const cp = await checkpoint(dir, 3);

    const after = repoState(dir);
    expect(after.files).toEqual(before.files);
    expect(after.status).toBe(before.status);
    expect(after.index).toBe(before.index);
    expect(after.cached).toBe(before.cached);
    expect(after.unstaged).toBe(before.unstaged);
    expect(after.head).toBe(before.head);
    expect(readFileSync(join(dir, '.git', 'index')).equals(indexBytes)).toBe(true);
    expect(statSync(join(dir, 'a.txt')).mtimeMs).toBe(mtime);
    // Ours on top, the user's entries below, untouched.
    const list = git(dir, 'stash', 'list').split('\n').filter(Boolean);
    expect(list[0]).toBe('stash@{0}: ralph checkpoint: loop 3');
    expect(git(dir, 'stash', 'list', '--format=%H %gs').split('\n').slice(1).join('\n')).toBe(before.stash);
    expect(cp).toMatchObject({ loop: 3, message: 'ralph checkpoint: loop 3', head: before.head.trim(), branch: 'refs/heads/main' });
    expect(git(dir, 'rev-parse', 'stash@{0}').trim()).toBe(cp.commit);
  });

  it('is a stash-like commit: git stash show lists tracked and untracked changes, never ignored or Ralph state files', async () => {
    const dir = dirtyRepo();
    const cp = await checkpoint(dir);
    const show = git(dir, 'stash', 'show', '--include-untracked', '--name-status', cp.commit);
    for (const path of ['a.txt', 'src/b.txt', 'staged-new.txt', 'gone.txt', 'rm-staged.txt', 'untracked.txt', 'notes/todo.md']) expect(show).toContain(path);
    for (const path of ['node_modules', 'debug.log', 'dist/bundle.js', '.ralph/status.json', '.ralph/.checkpoints']) expect(show).not.toContain(path);
    // The index commit holds exactly the staged state.
    expect(git(dir, 'diff', '--name-status', `${cp.commit}^1`, `${cp.commit}^2`)).toBe(git(dir, 'diff', '--cached', '--name-status'));
    expect(git(dir, 'show', `${cp.worktreeTree}:notes/todo.md`)).toBe('untracked notes\n');
  });

  it('keeps its own record list in .ralph/.checkpoints', async () => {
    const dir = dirtyRepo();
    const cp = await checkpoint(dir);
    const file = JSON.parse(readFileSync(join(dir, '.ralph', '.checkpoints'), 'utf8')) as { version: number; checkpoints: Checkpoint[] };
    expect(file.version).toBe(1);
    expect(file.checkpoints).toEqual([cp]);
  });

  it('on a clean tree', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    const before = repoState(dir);
    const cp = await checkpoint(dir);
    expect(cp.untrackedTree).toBeNull();
    expect(cp.worktreeTree).toBe(git(dir, 'rev-parse', 'HEAD^{tree}').trim());
    expect(cp.indexTree).toBe(cp.worktreeTree);
    writeFiles(dir, { 'a.txt': 'changed\n', 'b.txt': 'new\n' });
    const rb = await rollbackToCheckpoint(workspace(dir), cp, { attemptLabel: 'loop 1' });
    expect(rb).toMatchObject({ ok: true, restored: true });
    const after = repoState(dir);
    expect(after.files).toEqual(before.files);
    expect(after.status).toBe('');
    expect(after.index).toBe(before.index);
  });

  it('reports an unresolved merge conflict instead of guessing', async () => {
    const dir = gitRepo({ 'a.txt': 'base\n' });
    git(dir, 'checkout', '-q', '-b', 'other');
    writeFiles(dir, { 'a.txt': 'other\n' });
    git(dir, 'commit', '-q', '-am', 'other');
    git(dir, 'checkout', '-q', 'main');
    writeFiles(dir, { 'a.txt': 'main\n' });
    git(dir, 'commit', '-q', '-am', 'main');
    try {
      git(dir, 'merge', '-q', 'other');
    } catch {
      // conflict expected
    }
    const result = await createCheckpoint(workspace(dir), { loop: 1, now: now() });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('unresolved merge conflicts') });
    expect(git(dir, 'stash', 'list')).toBe('');
  });

  it('works in a repository without user.name (Ralph signs its own commits)', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    git(dir, 'config', '--unset', 'user.name');
    git(dir, 'config', '--unset', 'user.email');
    const home = tempDir('ralph-home-');
    const saved = { HOME: process.env['HOME'], XDG_CONFIG_HOME: process.env['XDG_CONFIG_HOME'] };
    process.env['HOME'] = home;
    process.env['XDG_CONFIG_HOME'] = home;
    try {
      writeFiles(dir, { 'b.txt': 'b\n' });
      const result = await createCheckpoint(workspace(dir), { loop: 1, now: now() });
      expect(result.ok).toBe(true);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});

describe('rollbackToCheckpoint', () => {
  it('brings back every byte of the pre-iteration state after an agent edited, deleted, created and committed', async () => {
    const dir = dirtyRepo();
    const before = repoState(dir);
    const ignoredStat = statSync(join(dir, 'node_modules/pkg/index.js'));
    const cp = await checkpoint(dir);
    agentMakesAMess(dir);
    const attemptFiles = readAll(dir);
    writeFiles(dir, { '.ralph/status.json': '{"loop": 2}\n' }); // Ralph's own state moves on meanwhile.

    const result = await rollbackToCheckpoint(workspace(dir), cp, { attemptLabel: 'loop 1', now: now() });
    if (!result.ok) throw new Error(result.reason);
    expect(result.restored).toBe(true);
    expect(result.headMoved).toBe(true);
    expect(result.attemptRef).toBe(`refs/ralph/attempts/${cp.id}`);

    const after = repoState(dir);
    // Ignored files are never touched: the agent's new ones stay, the old ones keep their inode and mtime.
    const expectedFiles = { ...before.files, 'node_modules/agent-dep/index.js': attemptFiles['node_modules/agent-dep/index.js'], 'build.log': attemptFiles['build.log'] };
    expect(after.files).toEqual(expectedFiles);
    expect(after.status).toBe(before.status);
    expect(after.index).toBe(before.index);
    expect(after.cached).toBe(before.cached);
    expect(after.unstaged).toBe(before.unstaged);
    expect(after.head).toBe(before.head);
    expect(after.branch).toBe(before.branch);
    const ignoredNow = statSync(join(dir, 'node_modules/pkg/index.js'));
    expect([ignoredNow.ino, ignoredNow.mtimeMs]).toEqual([ignoredStat.ino, ignoredStat.mtimeMs]);
    expect(existsSync(join(dir, 'new'))).toBe(false);
    // Ralph's state is not rolled back; the user's fix_plan is.
    expect(readFileSync(join(dir, '.ralph/status.json'), 'utf8')).toBe('{"loop": 2}\n');
    expect(readFileSync(join(dir, '.ralph/fix_plan.md'), 'utf8')).toBe('- [ ] task one\n');

    // The user's stash list is unchanged once our entry is dropped.
    expect((await dropCheckpoint(workspace(dir), cp)).ok).toBe(true);
    expect(repoState(dir).stash).toBe(before.stash);
    expect(git(dir, 'stash', 'show', '-p', 'stash@{1}')).toContain('a: user stash 1');
  });

  it('keeps the failed attempt reachable and checkable-out under refs/ralph/attempts/', async () => {
    const dir = dirtyRepo();
    const cp = await checkpoint(dir);
    agentMakesAMess(dir);
    const agentHead = git(dir, 'rev-parse', 'HEAD').trim();
    const attemptFiles = readAll(dir);
    const attemptIndex = git(dir, 'ls-files', '-s');
    const result = await rollbackToCheckpoint(workspace(dir), cp, { attemptLabel: 'loop 1', now: now() });
    if (!result.ok || !result.attemptRef) throw new Error('rollback failed');

    expect(git(dir, 'rev-parse', `${result.attemptRef}^1`).trim()).toBe(agentHead);
    expect(git(dir, 'log', '--format=%s', result.attemptRef)).toContain('agent: claims the task is done');
    expect(git(dir, 'log', '-1', '--format=%s', result.attemptRef).trim()).toBe('ralph attempt: loop 1');
    // The attempt's index is its second parent.
    const indexTree = git(dir, 'rev-parse', `${result.attemptRef}^2^{tree}`).trim();
    const scratch = tempDir('ralph-index-');
    execFileSync('git', ['read-tree', indexTree], { cwd: dir, env: { ...process.env, GIT_INDEX_FILE: join(scratch, 'index') } });
    expect(execFileSync('git', ['ls-files', '-s'], { cwd: dir, env: { ...process.env, GIT_INDEX_FILE: join(scratch, 'index') }, encoding: 'utf8' })).toBe(attemptIndex);

    // Check it out elsewhere: every non-ignored file of the attempt is there, untracked ones included.
    const other = join(tempDir('ralph-attempt-'), 'wt');
    git(dir, 'worktree', 'add', '-q', '--detach', other, result.attemptRef);
    const checkedOut = readAll(other);
    const expected = Object.fromEntries(Object.entries(attemptFiles).filter(([p]) => !/^(node_modules|dist)\/|\.log$/.test(p)));
    expect(checkedOut).toEqual(expected);
    expect(checkedOut['post-commit.txt']).toEqual({ type: 'file', mode: '-', content: 'after the commit\n' });
    git(dir, 'worktree', 'remove', '--force', other);
  });

  it('verifies before destroying: a checkpoint that is not ours changes nothing', async () => {
    const dir = dirtyRepo();
    const cp = await checkpoint(dir);
    agentMakesAMess(dir);
    const before = repoState(dir);
    const forged = { ...cp, commit: git(dir, 'rev-parse', 'HEAD').trim() };
    const result = await rollbackToCheckpoint(workspace(dir), forged, { attemptLabel: 'x' });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('is not a Ralph checkpoint') });
    const tampered = await rollbackToCheckpoint(workspace(dir), { ...cp, worktreeTree: cp.indexTree }, { attemptLabel: 'x' });
    expect(tampered).toEqual({ ok: false, reason: expect.stringContaining('nothing was changed') });
    const gone = await rollbackToCheckpoint(workspace(dir), { ...cp, commit: 'f'.repeat(40) }, { attemptLabel: 'x' });
    expect(gone).toEqual({ ok: false, reason: expect.stringContaining('no longer exists') });
    expect(repoState(dir)).toEqual(before);
    expect(git(dir, 'for-each-ref', 'refs/ralph/')).toBe('');
  });

  it('is idempotent: a second rollback finds nothing to do and saves no empty attempt', async () => {
    const dir = dirtyRepo();
    const cp = await checkpoint(dir);
    agentMakesAMess(dir);
    expect((await rollbackToCheckpoint(workspace(dir), cp, { attemptLabel: 'a' })).ok).toBe(true);
    const second = await rollbackToCheckpoint(workspace(dir), cp, { attemptLabel: 'b' });
    expect(second).toMatchObject({ ok: true, restored: false, attemptRef: null });
    expect(git(dir, 'for-each-ref', '--format=%(refname)', 'refs/ralph/attempts/').trim().split('\n')).toHaveLength(1);
  });

  it('on an unborn branch: the agent\'s first commit is undone, staged and untracked files come back', async () => {
    const dir = tempDir('ralph-unborn-');
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.name', 'T');
    git(dir, 'config', 'user.email', 't@example.invalid');
    writeFiles(dir, { '.gitignore': IGNORE, 'staged.txt': 'staged\n', 'loose.txt': 'untracked\n' });
    git(dir, 'add', 'staged.txt');
    const before = repoState(dir);
    const cp = await checkpoint(dir);
    expect(cp.head).toBeNull();
    expect(cp.branch).toBe('refs/heads/main');
    expect(git(dir, 'stash', 'list')).toContain('ralph checkpoint: loop 1');

    writeFiles(dir, { 'loose.txt': 'agent\n', 'created.txt': 'agent\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'agent first commit');
    const result = await rollbackToCheckpoint(workspace(dir), cp, { attemptLabel: 'loop 1' });
    if (!result.ok) throw new Error(result.reason);
    expect((await dropCheckpoint(workspace(dir), cp)).ok).toBe(true);
    expect(repoState(dir)).toEqual(before);
    expect(gitMaybe(dir, 'rev-parse', '-q', '--verify', 'refs/heads/main')).toBe('(none)');
    expect(git(dir, 'log', '--format=%s', result.attemptRef!)).toContain('agent first commit');
  });

  it('in a detached HEAD: commits and a branch switch by the agent are undone, the agent\'s branch is kept', async () => {
    const dir = gitRepo({ 'a.txt': 'one\n' });
    writeFiles(dir, { 'a.txt': 'two\n' });
    git(dir, 'commit', '-q', '-am', 'two');
    git(dir, 'checkout', '-q', '--detach', 'HEAD~1');
    writeFiles(dir, { 'a.txt': 'dirty in detached\n' });
    const before = repoState(dir);
    const cp = await checkpoint(dir);
    expect(cp.branch).toBeNull();

    git(dir, 'commit', '-q', '-am', 'agent in detached');
    git(dir, 'checkout', '-q', '-b', 'agent-branch');
    writeFiles(dir, { 'a.txt': 'on agent branch\n' });
    git(dir, 'commit', '-q', '-am', 'agent on branch');
    const result = await rollbackToCheckpoint(workspace(dir), cp, { attemptLabel: 'loop 1' });
    if (!result.ok) throw new Error(result.reason);
    await dropCheckpoint(workspace(dir), cp);
    expect(repoState(dir)).toEqual(before);
    expect(git(dir, 'log', '-1', '--format=%s', 'agent-branch').trim()).toBe('agent on branch');
  });

  it('on a branch the agent left: HEAD goes back to the branch and the branch back to its commit', async () => {
    const dir = gitRepo({ 'a.txt': 'one\n' });
    const before = repoState(dir);
    const cp = await checkpoint(dir);
    writeFiles(dir, { 'a.txt': 'main work\n' });
    git(dir, 'commit', '-q', '-am', 'agent on main');
    const mainTip = git(dir, 'rev-parse', 'HEAD').trim();
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFiles(dir, { 'f.txt': 'feature\n' });
    git(dir, 'add', 'f.txt');
    git(dir, 'commit', '-q', '-m', 'agent on feature');
    const result = await rollbackToCheckpoint(workspace(dir), cp, { attemptLabel: 'loop 1' });
    if (!result.ok) throw new Error(result.reason);
    await dropCheckpoint(workspace(dir), cp);
    expect(repoState(dir)).toEqual(before);
    // The commit the agent made on main is not lost: it is a parent of the attempt.
    expect(git(dir, 'rev-list', '--parents', '-n', '1', result.attemptRef!)).toContain(mainTip);
    expect(git(dir, 'rev-parse', 'feature').trim()).not.toBe('');
  });

  it('spares files that only the restored .gitignore ignores, and keeps the attempt\'s version of files its .gitignore hid', async () => {
    const dir = dirtyRepo();
    const cp = await checkpoint(dir);
    // The agent un-ignores dist/ and ignores notes/, then edits the hidden notes.
    writeFiles(dir, { '.gitignore': 'node_modules/\n*.log\nnotes/\n.ralph/.*\n.ralph/logs/\n', 'notes/todo.md': 'agent notes, hidden\n', 'dist/bundle.js': 'rebuilt by agent\n' });
    const result = await rollbackToCheckpoint(workspace(dir), cp, { attemptLabel: 'loop 1' });
    if (!result.ok) throw new Error(result.reason);
    expect(result.report.keptIgnored).toEqual(['dist/bundle.js']);
    expect(readFileSync(join(dir, 'dist/bundle.js'), 'utf8')).toBe('rebuilt by agent\n');
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(IGNORE);
    expect(readFileSync(join(dir, 'notes/todo.md'), 'utf8')).toBe('untracked notes\n');
    expect(git(dir, 'show', `${result.attemptRef!}:notes/todo.md`)).toBe('agent notes, hidden\n');
  });

  it('rolls back the whole repository when the project is a subdirectory', async () => {
    const dir = gitRepo({ 'pkg/app.txt': 'app\n', 'other/lib.txt': 'lib\n', '.gitignore': 'pkg/.ralph/.*\n' });
    const project = join(dir, 'pkg');
    const before = repoState(dir);
    const result = await createCheckpoint(workspace(project), { loop: 1, now: now() });
    if (!result.ok) throw new Error(result.reason);
    writeFiles(dir, { 'other/lib.txt': 'agent\n', 'pkg/app.txt': 'agent\n', 'pkg/new.txt': 'x\n' });
    const rb = await rollbackToCheckpoint(workspace(project), result.checkpoint, { attemptLabel: 'loop 1' });
    expect(rb.ok).toBe(true);
    await dropCheckpoint(workspace(project), result.checkpoint);
    expect(repoState(dir)).toEqual(before);
    expect(existsSync(join(project, '.ralph', '.checkpoints'))).toBe(true);
  });
});

describe('dropCheckpoint and pruneCheckpoints', () => {
  it('drop finds our entry by id even when it is no longer on top, and keeps every other entry', async () => {
    const dir = dirtyRepo();
    const cp = await checkpoint(dir);
    writeFiles(dir, { 'later.txt': 'x\n' });
    git(dir, 'stash', 'push', '-q', '-u', '-m', 'user stash made during the iteration');
    const before = git(dir, 'stash', 'list', '--format=%H %gs').split('\n').filter(Boolean);
    expect(before[1]).toBe(`${cp.commit} ralph checkpoint: loop 1`);
    const result = await dropCheckpoint(workspace(dir), cp);
    expect(result).toEqual({ ok: true, dropped: true });
    const after = git(dir, 'stash', 'list', '--format=%H %gs').split('\n').filter(Boolean);
    expect(after).toEqual(before.filter((line) => !line.startsWith(cp.commit)));
    expect(JSON.parse(readFileSync(join(dir, '.ralph/.checkpoints'), 'utf8')).checkpoints).toEqual([]);
    expect(await dropCheckpoint(workspace(dir), cp)).toEqual({ ok: true, dropped: false });
  });

  it('prune keeps the newest N of ours and never touches the user\'s entries', async () => {
    const dir = dirtyRepo();
    const userEntries = git(dir, 'stash', 'list', '--format=%H %gs');
    const made: Checkpoint[] = [];
    for (let loop = 1; loop <= 4; loop += 1) {
      writeFiles(dir, { 'a.txt': `loop ${loop}\n` });
      made.push(await checkpoint(dir, loop));
    }
    const result = await pruneCheckpoints(workspace(dir), 2);
    expect(result).toEqual({ ok: true, dropped: [made[0]!.id, made[1]!.id], kept: [made[2]!.id, made[3]!.id] });
    expect(git(dir, 'stash', 'list', '--format=%gs').split('\n').filter(Boolean)).toEqual([
      'ralph checkpoint: loop 4',
      'ralph checkpoint: loop 3',
      'On main: user work 2 with untracked',
      'On main: user work 1',
    ]);
    expect(git(dir, 'stash', 'list', '--format=%H %gs').split('\n').slice(2).join('\n')).toBe(userEntries);
    expect(await pruneCheckpoints(workspace(dir), 0)).toEqual({ ok: true, dropped: [made[2]!.id, made[3]!.id], kept: [] });
    expect(git(dir, 'stash', 'list', '--format=%H %gs')).toBe(userEntries);
  });
});

describe('listCheckpoints and restoreCheckpoint', () => {
  it('lists checkpoints with their stash position and the saved attempts', async () => {
    const dir = dirtyRepo();
    const cp = await checkpoint(dir);
    agentMakesAMess(dir);
    await rollbackToCheckpoint(workspace(dir), cp, { attemptLabel: 'loop 1' });
    const listing = await listCheckpoints(workspace(dir));
    if (!listing.ok) throw new Error(listing.reason);
    expect(listing.checkpoints).toEqual([{ ...cp, stashIndex: 0 }]);
    expect(listing.attempts).toEqual([expect.objectContaining({ ref: `refs/ralph/attempts/${cp.id}`, subject: 'ralph attempt: loop 1' })]);
  });

  it('a corrupt record list is reset with a warning and rebuilt from the stash', async () => {
    const dir = dirtyRepo();
    const first = await checkpoint(dir, 1);
    writeFileSync(join(dir, '.ralph/.checkpoints'), '{ not json');
    const warnings: string[] = [];
    const second = await createCheckpoint(workspace(dir), { loop: 2, now: now(), warn: (m) => warnings.push(m) });
    expect(second.ok).toBe(true);
    expect(warnings.join('\n')).toContain('.checkpoints was corrupt');
    const listing = await listCheckpoints(workspace(dir));
    if (!listing.ok) throw new Error(listing.reason);
    expect(listing.checkpoints.map((c) => c.id)).toEqual([first.id, (second as { checkpoint: Checkpoint }).checkpoint.id]);
    expect(listing.checkpoints[0]).toEqual({ ...first, stashIndex: 1 });
  });

  it('restore checkpoints the present first, so a restore can itself be undone', async () => {
    const dir = dirtyRepo();
    const atLoop1 = repoState(dir);
    const cp1 = await checkpoint(dir, 1);
    agentMakesAMess(dir);
    const atLoop2 = repoState(dir);
    await checkpoint(dir, 2);
    writeFiles(dir, { 'a.txt': 'loop 2 work\n' });
    const beforeRestore = repoState(dir);

    const restored = await restoreCheckpoint(workspace(dir), cp1.id, { now: now(), loop: 2 });
    if (!restored.ok) throw new Error(restored.reason);
    expect(restored.checkpoint.id).toBe(cp1.id);
    expect(restored.safety.message).toBe(`ralph checkpoint: before restore of ${cp1.id}`);
    const afterRestore = repoState(dir);
    expect(afterRestore.files).toEqual({ ...atLoop1.files, 'node_modules/agent-dep/index.js': atLoop2.files['node_modules/agent-dep/index.js'], 'build.log': atLoop2.files['build.log'] });
    expect(afterRestore.index).toBe(atLoop1.index);
    expect(afterRestore.head).toBe(atLoop1.head);

    const undo = await restoreCheckpoint(workspace(dir), restored.safety.id, { now: now() });
    if (!undo.ok) throw new Error(undo.reason);
    const afterUndo = repoState(dir);
    expect(afterUndo.files).toEqual(beforeRestore.files);
    expect(afterUndo.index).toBe(beforeRestore.index);
    expect(afterUndo.head).toBe(beforeRestore.head);
  });

  it('restore by a unique prefix, and a clear message for an unknown id', async () => {
    const dir = gitRepo();
    const cp = await checkpoint(dir, 7);
    const unknown = await restoreCheckpoint(workspace(dir), 'cp99', { now: now() });
    expect(unknown).toEqual({ ok: false, reason: 'no checkpoint "cp99"; `ralph --checkpoints` lists them' });
    const byCommit = await restoreCheckpoint(workspace(dir), cp.commit.slice(0, 10), { now: now() });
    expect(byCommit).toMatchObject({ ok: true, restored: false, checkpoint: { id: cp.id } });
  });
});

describe('outside a git repository', () => {
  it('every function reports "not a git repository" so the caller can warn and go on', async () => {
    const dir = tempDir('ralph-nogit-');
    mkdirSync(join(dir, 'sub'));
    const ws = workspace(join(dir, 'sub'));
    const expected = { ok: false, reason: 'not a git repository' };
    expect(await createCheckpoint(ws, { loop: 1, now: now() })).toEqual(expected);
    const fake = { id: 'cp1-x', loop: 1, message: '', createdAt: new Date().toISOString(), head: null, branch: null, indexTree: 'a'.repeat(40), worktreeTree: 'a'.repeat(40), trackedTree: 'a'.repeat(40), untrackedTree: null, commit: 'a'.repeat(40) };
    expect(await rollbackToCheckpoint(ws, fake, { attemptLabel: 'x' })).toEqual(expected);
    expect(await dropCheckpoint(ws, fake)).toEqual(expected);
    expect(await pruneCheckpoints(ws, 1)).toEqual(expected);
    expect(await listCheckpoints(ws)).toEqual(expected);
    expect(await restoreCheckpoint(ws, 'cp1-x', { now: now() })).toEqual(expected);
    expect(existsSync(join(dir, 'sub', '.ralph'))).toBe(false);
  });
});
