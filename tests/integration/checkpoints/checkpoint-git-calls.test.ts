import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCheckpoint, dropCheckpoint, pruneExcessCheckpoints, type Checkpoint } from '../../../src/checkpoints/git-checkpoints.js';
import { repoContext } from '../../../src/checkpoints/git/git-plumbing.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { readSnapshot } from '../../../src/checkpoints/store/snapshot-commit.js';
import { git, gitRepo, writeFiles } from '../../helpers/git-repo.js';
import { gitCommandsDuring } from '../../helpers/git-trace.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * What a checkpoint asks of git. Between iterations most of a project stays as
 * it was; what the last checkpoint of the run already wrote (trees, file
 * contents, the permission listing) is not written again.
 */

let now = 1_700_000_000_000;

async function checkpoint(dir: string, loop: number): Promise<Checkpoint> {
  now += 1_000;
  const made = await createCheckpoint(new GitWorkspace(dir, createProcessRunner()), { loop, now });
  if (!made.ok) throw new Error(made.reason);
  return made.checkpoint;
}

/** A project whose files were last written a minute ago, as between two iterations. */
function settledProject(): string {
  const dir = gitRepo({ 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'run.sh': '#!/bin/sh\n' });
  chmodSync(join(dir, 'run.sh'), 0o755);
  writeFiles(dir, { 'notes/new.md': 'untracked\n', 'src/c.ts': 'untracked too\n' });
  git(dir, 'add', 'src/b.ts');
  const past = new Date(Date.now() - 60_000);
  for (const path of ['src/a.ts', 'src/b.ts', 'run.sh', 'notes/new.md', 'src/c.ts']) utimesSync(join(dir, path), past, past);
  return dir;
}

describe('git processes of a checkpoint', () => {
  it('an unchanged project is checkpointed again without hashing a file or writing a tree', async () => {
    const dir = settledProject();
    const first = await checkpoint(dir, 1);
    let second: Checkpoint | undefined;
    const commands = await gitCommandsDuring(async () => {
      second = await checkpoint(dir, 2);
    });
    // git lists the files and the refs and writes the one new object (the commit); Ralph checks a small index's files and writes its own ref itself.
    expect(commands.sort()).toEqual(['commit-tree', 'for-each-ref', 'ls-files', 'ls-files']);
    expect(git(dir, 'rev-parse', `${second?.commit}^{tree}`)).toBe(git(dir, 'rev-parse', `${first.commit}^{tree}`));
    // The data (index, refs, permission bits) is the same too: one commit carries it for both.
    expect(git(dir, 'rev-parse', `${second?.commit}^1`)).toBe(git(dir, 'rev-parse', `${first.commit}^1`));
  });

  it('asks git which tracked files changed once the index is large, and sees the change either way', async () => {
    const files = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`src/f${i}.ts`, `export const v${i} = ${i};\n`]));
    const dir = gitRepo(files);
    const past = new Date(Date.now() - 60_000);
    for (const path of Object.keys(files)) utimesSync(join(dir, path), past, past);
    git(dir, 'update-index', '--refresh');
    const first = await checkpoint(dir, 1);
    writeFiles(dir, { 'src/f7.ts': 'export const v7 = 8;\n' });
    let second: Checkpoint | undefined;
    const commands = await gitCommandsDuring(async () => {
      second = await checkpoint(dir, 2);
    });
    expect(commands).toContain('diff-files');
    expect(git(dir, 'show', `${second?.commit}:src/f7.ts`)).toBe('export const v7 = 8;\n');
    expect(git(dir, 'show', `${first.commit}:src/f7.ts`)).toBe('export const v7 = 7;\n');
  });

  it('a shared data commit pruned since it was written is written again', async () => {
    const dir = settledProject();
    const first = await checkpoint(dir, 1);
    await dropCheckpoint(new GitWorkspace(dir, createProcessRunner()), first);
    // What `git prune` does to the unreachable commit, and nothing else.
    const data = git(dir, 'rev-parse', `${first.commit}^1`).trim();
    rmSync(join(dir, '.git', 'objects', data.slice(0, 2), data.slice(2)));
    const second = await checkpoint(dir, 2);
    expect(git(dir, 'cat-file', '-t', `${second.commit}^1`).trim()).toBe('commit');
    const snapshot = await readSnapshot((await repoContext(dir))!, second.commit);
    if (typeof snapshot === 'string') throw new Error(snapshot);
    expect(snapshot.state.files.get('run.sh')?.perm).toBe(0o755);
  });

  it('reads the refs again only when a file that holds one changed', async () => {
    const dir = settledProject();
    git(dir, 'branch', 'feature');
    git(dir, 'tag', '-a', '-m', 'release', 'v1');
    // Ref files younger than a moment are never vouched for: let them settle.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const first = await checkpoint(dir, 1);
    const unchanged = await gitCommandsDuring(() => checkpoint(dir, 2));
    expect(unchanged).not.toContain('for-each-ref');
    git(dir, 'branch', '-f', 'feature', 'HEAD~0');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'moved on');
    git(dir, 'branch', '-D', 'feature');
    git(dir, 'pack-refs', '--all');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    let third: Checkpoint | undefined;
    const changed = await gitCommandsDuring(async () => {
      third = await checkpoint(dir, 3);
    });
    expect(changed).toContain('for-each-ref');
    const ctx = await repoContext(dir);
    const before = await readSnapshot(ctx!, first.commit);
    const after = await readSnapshot(ctx!, third!.commit);
    if (typeof before === 'string' || typeof after === 'string') throw new Error('not a snapshot');
    const names = (refs: { name: string }[] | null): string[] => (refs ?? []).map((r) => r.name).sort();
    expect(names(before.state.refs)).toEqual(['refs/heads/feature', 'refs/heads/main', 'refs/tags/v1']);
    expect(names(after.state.refs)).toEqual(['refs/heads/main', 'refs/tags/v1']);
    expect(after.state.refs?.find((r) => r.name === 'refs/heads/main')?.oid).toBe(git(dir, 'rev-parse', 'main').trim());
    expect(after.state.refs?.find((r) => r.name === 'refs/tags/v1')?.commit).toBe(git(dir, 'rev-parse', 'v1^{commit}').trim());
  });

  it('reads the refs every time when they are kept behind a symbolic link, whose target may change unseen', async () => {
    const dir = settledProject();
    const elsewhere = tempDir('ralph-refs-');
    renameSync(join(dir, '.git', 'refs'), join(elsewhere, 'refs'));
    symlinkSync(join(elsewhere, 'refs'), join(dir, '.git', 'refs'));
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await checkpoint(dir, 1);
    const again = await gitCommandsDuring(() => checkpoint(dir, 2));
    expect(again).toContain('for-each-ref');
  });

  it('dropping a checkpoint starts no git process: Ralph deletes the ref file it wrote', async () => {
    const dir = settledProject();
    const cp = await checkpoint(dir, 1);
    expect(git(dir, 'rev-parse', `refs/ralph/checkpoints/${cp.id}`).trim()).toBe(cp.commit);
    const commands = await gitCommandsDuring(() => dropCheckpoint(new GitWorkspace(dir, createProcessRunner()), cp));
    expect(commands).toEqual([]);
    expect(git(dir, 'for-each-ref', 'refs/ralph/')).toBe('');
  });

  it("the loop's prune asks git nothing while there are no more checkpoints than it keeps, and prunes the oldest beyond", async () => {
    const dir = settledProject();
    const ws = new GitWorkspace(dir, createProcessRunner());
    const first = await checkpoint(dir, 1);
    expect(await gitCommandsDuring(() => pruneExcessCheckpoints(ws, 1))).toEqual([]);
    const second = await checkpoint(dir, 2);
    await pruneExcessCheckpoints(ws, 1);
    const left = () => git(dir, 'for-each-ref', '--format=%(refname)', 'refs/ralph/checkpoints/').trim();
    expect(left()).toBe(`refs/ralph/checkpoints/${second.id}`);
    expect(left()).not.toContain(first.id);
    // Packed refs are not counted from files: git is asked, and the limit holds all the same.
    await checkpoint(dir, 3);
    git(dir, 'pack-refs', '--all');
    expect(await gitCommandsDuring(() => pruneExcessCheckpoints(ws, 1))).toContain('for-each-ref');
    expect(left().split('\n')).toHaveLength(1);
  });

  it('records permission bits changed since the last checkpoint, though the tree stays the same', async () => {
    const dir = settledProject();
    const first = await checkpoint(dir, 1);
    chmodSync(join(dir, 'src/a.ts'), 0o600);
    const second = await checkpoint(dir, 2);
    const ctx = await repoContext(dir);
    const before = await readSnapshot(ctx!, first.commit);
    const after = await readSnapshot(ctx!, second.commit);
    if (typeof before === 'string' || typeof after === 'string') throw new Error('not a snapshot');
    expect(before.state.files.get('src/a.ts')?.perm).toBe(0o644);
    expect(after.state.files.get('src/a.ts')?.perm).toBe(0o600);
    expect(git(dir, 'rev-parse', `${second.commit}^{tree}`)).toBe(git(dir, 'rev-parse', `${first.commit}^{tree}`));
  });

  it('records the index as it is now after the user staged a file, the files being the same', async () => {
    const dir = settledProject();
    const first = await checkpoint(dir, 1);
    git(dir, 'add', 'src/c.ts');
    const second = await checkpoint(dir, 2);
    const ctx = await repoContext(dir);
    const before = await readSnapshot(ctx!, first.commit);
    const after = await readSnapshot(ctx!, second.commit);
    if (typeof before === 'string' || typeof after === 'string') throw new Error('not a snapshot');
    expect(after.state.index?.equals(readFileSync(join(dir, '.git', 'index')))).toBe(true);
    expect(after.state.index?.equals(before.state.index as Buffer)).toBe(false);
  });
});

describe('the files tree after the agent committed', () => {
  it.each([
    ['in a repository with git defaults', undefined],
    ['where the configuration asks git to fsync loose objects', ['core.fsync', 'loose-object']],
  ])("is the tree of the new commit, written by git's mktree %s", async (_how, setting) => {
    const dir = gitRepo({ 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'docs/c.md': 'c\n', 'run.sh': '#!/bin/sh\n' });
    if (setting) git(dir, 'config', ...setting);
    await checkpoint(dir, 1);
    writeFiles(dir, { 'src/a.ts': 'changed\n', 'src/new/d.ts': 'new\n' });
    rmSync(join(dir, 'docs/c.md'));
    chmodSync(join(dir, 'run.sh'), 0o755);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'agent');
    let second: Checkpoint | undefined;
    const commands = await gitCommandsDuring(async () => {
      second = await checkpoint(dir, 2);
    });
    // The trees of the directories that changed go to one mktree: the files tree is the tree of the new commit.
    expect(commands.filter((c) => c === 'mktree')).toHaveLength(1);
    expect(git(dir, 'rev-parse', `${second?.commit}^{tree}`)).toBe(git(dir, 'rev-parse', 'HEAD^{tree}'));
    // And back: the file deleted and the mode changed again, without a commit.
    writeFiles(dir, { 'docs/c.md': 'c\n' });
    chmodSync(join(dir, 'run.sh'), 0o644);
    rmSync(join(dir, 'src/new'), { recursive: true });
    writeFiles(dir, { 'src/a.ts': 'a\n' });
    const third = await checkpoint(dir, 3);
    expect(git(dir, 'rev-parse', `${third.commit}^{tree}`)).toBe(git(dir, 'rev-parse', 'HEAD~1^{tree}'));
  });

  it('removes the kept index an older version left in a process that is gone, and keeps none of its own', async () => {
    const dir = gitRepo();
    mkdirSync(join(dir, '.git', 'ralph'), { recursive: true });
    // PID 2^22+1 is above Linux's pid_max: no live process has it.
    writeFileSync(join(dir, '.git', 'ralph', 'kept-4194305-abc-1-files-index'), 'left by kill -9');
    await checkpoint(dir, 1);
    const left = readdirSync(join(dir, '.git', 'ralph')).filter((n) => n.startsWith('kept-'));
    expect(left).toEqual([]);
  });
});

describe('what a checkpoint keeps reachable', () => {
  it('content that is only staged survives the user resetting the index and pruning', async () => {
    const dir = settledProject();
    writeFiles(dir, { 'src/a.ts': 'staged only\n' });
    git(dir, 'add', 'src/a.ts');
    writeFiles(dir, { 'src/a.ts': 'work tree\n' });
    const staged = git(dir, 'rev-parse', ':src/a.ts').trim();
    const cp = await checkpoint(dir, 1);
    git(dir, 'reset', '-q');
    git(dir, 'prune', '--expire=now');
    expect(git(dir, 'cat-file', '-t', staged).trim()).toBe('blob');
    expect(git(dir, 'rev-parse', `refs/ralph/checkpoints/${cp.id}`).trim()).toBe(cp.commit);
  });

  it('an index in the middle of a conflicted merge, which has no tree, is kept by its blob ids', async () => {
    const dir = settledProject();
    git(dir, 'checkout', '-q', '-b', 'other');
    writeFiles(dir, { 'src/a.ts': 'theirs\n' });
    git(dir, 'commit', '-q', '-am', 'theirs');
    git(dir, 'checkout', '-q', 'main');
    writeFiles(dir, { 'src/a.ts': 'ours\n' });
    git(dir, 'commit', '-q', '-am', 'ours');
    expect(() => git(dir, 'merge', '-q', 'other')).toThrow();
    const theirs = git(dir, 'rev-parse', ':3:src/a.ts').trim();
    const cp = await checkpoint(dir, 1);
    const kept = git(dir, 'ls-tree', '--name-only', `${cp.commit}^1:index-objects`).split('\n');
    expect(kept).toContain(theirs);
  });
});
