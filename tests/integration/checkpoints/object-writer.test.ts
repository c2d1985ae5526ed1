import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCheckpoint, dropCheckpoint } from '../../../src/checkpoints/git-checkpoints.js';
import { repoContext, type RepoContext } from '../../../src/checkpoints/git/git-plumbing.js';
import { objectWriter, withObjectWriter } from '../../../src/checkpoints/git/object-writer.js';
import type { FileEntry } from '../../../src/checkpoints/capture/repo-state.js';
import { TreeWriter } from '../../../src/checkpoints/store/tree-writer.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { git, gitRepo, writeFiles } from '../../helpers/git-repo.js';

/**
 * Every object a checkpoint stores is written by git's own commands
 * (hash-object, mktree, commit-tree): the very objects git writes, under the
 * repository's settings wherever they are set.
 */

function gitWithInput(cwd: string, args: string[], input: Buffer | string, env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('git', args, { cwd, input, env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
}

async function contextOf(dir: string): Promise<RepoContext> {
  const ctx = await repoContext(dir);
  if (!ctx) throw new Error('not a repository');
  return ctx;
}

/** The tree git writes for `files` (binary paths, under `prefix`) from an index of its own. */
function gitTree(dir: string, files: ReadonlyMap<string, FileEntry>, prefix = ''): string {
  const index = join(dir, '.git', `test-index-${Math.random().toString(36).slice(2)}`);
  const lines = [...files].map(([path, e]) => `${e.mode} ${e.oid}\t${prefix}${path}\0`).join('');
  try {
    if (lines) gitWithInput(dir, ['update-index', '-z', '--index-info'], Buffer.from(lines, 'latin1'), { GIT_INDEX_FILE: index });
    return gitWithInput(dir, ['write-tree'], '', { GIT_INDEX_FILE: index });
  } finally {
    rmSync(index, { force: true });
  }
}

/** The git processes this test process started that are still there (Linux's /proc). */
function gitChildren(): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === process.pid && comm === 'git' ? [pid] : [];
      } catch {
        return [];
      }
    });
}

describe('the object writer', () => {
  it('stores blobs from files and from bytes as git does, and its batch commands end with it', async () => {
    const dir = gitRepo();
    writeFiles(dir, { 'a b.txt': 'one\n', 'line\nbreak.txt': 'two\n' });
    const ctx = await contextOf(dir);
    const ids = await withObjectWriter(ctx, async (scoped) => {
      const writer = objectWriter(scoped);
      return [...(await writer.hashPaths(['a b.txt', 'line\nbreak.txt'])), ...(await writer.writeBlobs([Buffer.from('three\n'), Buffer.from([0, 255, 10])]))];
    });
    expect(ids).toEqual([
      gitWithInput(dir, ['hash-object', '--stdin'], 'one\n'),
      gitWithInput(dir, ['hash-object', '--stdin'], 'two\n'),
      gitWithInput(dir, ['hash-object', '--stdin'], 'three\n'),
      gitWithInput(dir, ['hash-object', '--stdin'], Buffer.from([0, 255, 10])),
    ]);
    expect(gitChildren()).toEqual([]);
    for (const id of ids) expect(git(dir, 'cat-file', '-t', id).trim()).toBe('blob');
    // No temporary file is left in Ralph's area of the git dir.
    expect(readdirSync(join(dir, '.git', 'ralph')).filter((name) => name.startsWith('tmp-'))).toEqual([]);
    git(dir, 'fsck', '--strict', '--no-dangling');
  });

  it('is used only inside withObjectWriter, a request git refuses fails with what git said, and an error ends every batch command', async () => {
    const ctx = await contextOf(gitRepo());
    expect(() => objectWriter(ctx)).toThrow(/withObjectWriter/);
    const refused = withObjectWriter(ctx, (scoped) => objectWriter(scoped).writeTree([{ mode: '100644', name: 'gone', oid: '1'.repeat(40) }]));
    await expect(refused).rejects.toThrow(/git mktree failed: .*is unavailable/);
    // A writer whose work failed midway has ended its batch commands too.
    const failed = withObjectWriter(ctx, async (scoped) => {
      const writer = objectWriter(scoped);
      writer.startRefUpdate('test');
      await writer.hashPaths(['.git/HEAD']);
      throw new Error('the checkpoint failed');
    });
    await expect(failed).rejects.toThrow('the checkpoint failed');
    expect(gitChildren()).toEqual([]);
  });

  it("honours the repository's settings wherever they are set: an included file asking for shared permissions", async () => {
    const dir = gitRepo();
    writeFileSync(join(dir, '.git', 'shared.inc'), '[core]\n\tsharedRepository = group\n');
    git(dir, 'config', 'include.path', 'shared.inc');
    writeFiles(dir, { 'fresh.txt': `never stored before ${Date.now()}\n` });
    const ctx = await contextOf(dir);
    const [id = ''] = await withObjectWriter(ctx, (scoped) => objectWriter(scoped).hashPaths(['fresh.txt']));
    // Git made the object's directory group-writable and set-group-id, as a shared repository needs.
    expect(statSync(join(dir, '.git', 'objects', id.slice(0, 2))).mode & 0o2070).toBe(0o2070);
  });
});

describe('the tree writer', () => {
  const entry = (oid: string, mode = '100644'): FileEntry => ({ mode, oid, perm: mode === '100755' ? 0o755 : 0o644 });

  it('writes the tree git writes, step after step, for names that sort apart and paths that turn from file to directory', async () => {
    const dir = gitRepo();
    const ctx = await contextOf(dir);
    await withObjectWriter(ctx, async (scoped) => {
      const objects = objectWriter(scoped);
      const [x = '', y = '', z = ''] = await objects.writeBlobs([Buffer.from('x\n'), Buffer.from('y\n'), Buffer.from('z\n')]);
      const weird = Buffer.from('caf\u00e9 dir/na me', 'utf8').toString('latin1');
      const steps: [string, FileEntry][][] = [
        [
          ['a', entry(x)],
          ['a.b', entry(y)],
          ['a-c/d', entry(z)],
          ['b/c/d/e', entry(x, '100755')],
          [weird, entry(y)],
        ],
        [
          ['a/inner', entry(x)],
          ['a.b', entry(y)],
          ['a-c/d', entry(z, '100755')],
          ['b/c/f', entry(y)],
          [weird, entry(y)],
        ],
        [
          ['a', entry(z, '120000')],
          ['b', entry(x)],
        ],
        [],
        [['only/one/deep/file', entry(z)]],
      ];
      for (const prefix of ['', 'sub/project/']) {
        const writer = new TreeWriter(prefix);
        for (const step of steps) {
          const files = new Map(step);
          expect(await writer.write(objects, files)).toBe(gitTree(dir, files, prefix));
        }
      }
    });
  });
});

describe('a checkpoint after a prune', () => {
  it('writes every tree again when the trees it kept were pruned', async () => {
    const dir = gitRepo({ 'src/deep/a.ts': 'a\n', 'src/b.ts': 'b\n' });
    const ws = new GitWorkspace(dir, createProcessRunner());
    writeFiles(dir, { 'src/deep/a.ts': 'changed\n' });
    const first = await createCheckpoint(ws, { loop: 1, now: 1_700_000_000_000 });
    if (!first.ok) throw new Error(first.reason);
    const dropped = await dropCheckpoint(ws, first.checkpoint);
    if (!dropped.ok) throw new Error(dropped.reason);
    git(dir, 'prune', '--expire=now');
    mkdirSync(join(dir, 'src', 'other'));
    writeFiles(dir, { 'src/other/c.ts': 'c\n' });
    const second = await createCheckpoint(ws, { loop: 2, now: 1_700_000_001_000 });
    if (!second.ok) throw new Error(second.reason);
    expect(git(dir, 'cat-file', 'blob', `${second.checkpoint.commit}:src/deep/a.ts`)).toBe('changed\n');
    git(dir, 'fsck', '--strict', '--no-dangling');
  });
});

describe('the commits of a checkpoint', () => {
  it('are the commits git commit-tree writes with the same tree, parents, message, identity and date', async () => {
    const dir = gitRepo({ 'src/a.ts': 'a\n' });
    const made = await createCheckpoint(new GitWorkspace(dir, createProcessRunner()), { loop: 3, now: 1_700_000_123_456 });
    if (!made.ok) throw new Error(made.reason);
    for (const commit of [made.checkpoint.commit, `${made.checkpoint.commit}^1`]) {
      const raw = git(dir, 'cat-file', 'commit', commit);
      const message = raw.slice(raw.indexOf('\n\n') + 2);
      const parents = [...raw.matchAll(/^parent (\w+)$/gm)].flatMap((m) => ['-p', m[1] as string]);
      const date = '@1700000123 +0000';
      const again = gitWithInput(dir, ['commit-tree', git(dir, 'rev-parse', `${commit}^{tree}`).trim(), ...parents], message, {
        GIT_AUTHOR_NAME: 'Ralph',
        GIT_AUTHOR_EMAIL: 'ralph@localhost',
        GIT_COMMITTER_NAME: 'Ralph',
        GIT_COMMITTER_EMAIL: 'ralph@localhost',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      });
      expect(again).toBe(git(dir, 'rev-parse', commit).trim());
    }
  });
});

describe('a checkpoint whose stored contents were pruned', () => {
  it('stores the contents again rather than record a file whose bytes are gone', async () => {
    const dir = gitRepo({ 'src/a.ts': 'a\n' });
    writeFiles(dir, { 'notes/untracked.md': 'only in the work tree\n' });
    const ws = new GitWorkspace(dir, createProcessRunner());
    const first = await createCheckpoint(ws, { loop: 1, now: 1_700_000_000_000 });
    if (!first.ok) throw new Error(first.reason);
    const blob = git(dir, 'rev-parse', `${first.checkpoint.commit}:notes/untracked.md`).trim();
    git(dir, 'update-ref', '-d', `refs/ralph/checkpoints/${first.checkpoint.id}`);
    rmSync(join(dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    const second = await createCheckpoint(ws, { loop: 2, now: 1_700_000_001_000 });
    if (!second.ok) throw new Error(second.reason);
    expect(git(dir, 'cat-file', 'blob', `${second.checkpoint.commit}:notes/untracked.md`)).toBe('only in the work tree\n');
    git(dir, 'fsck', '--strict', '--no-dangling');
  });
});
