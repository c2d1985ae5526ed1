import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCheckpoint } from '../../../src/checkpoints/git-checkpoints.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { LooseObjectStore, looseObjectStore, treeContent } from '../../../src/checkpoints/git/loose-objects.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import type { FileEntry } from '../../../src/checkpoints/capture/repo-state.js';
import { TreeWriter } from '../../../src/checkpoints/store/tree-writer.js';
import { git, gitRepo, writeFiles } from '../../helpers/git-repo.js';

/**
 * Objects Ralph writes itself must be the very objects git would write: same
 * ids, readable by git, and passing its strictest checks.
 */

function gitWithInput(cwd: string, args: string[], input: Buffer | string, env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('git', args, { cwd, input, env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
}

function storeOf(dir: string): LooseObjectStore {
  return new LooseObjectStore(join(dir, '.git', 'objects'));
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

describe('loose objects written by Ralph', () => {
  it('are the objects git writes: same ids, and git fsck --strict finds nothing wrong', () => {
    const dir = gitRepo();
    const store = storeOf(dir);
    const content = Buffer.from('bytes \u00e9 as they are\r\n\0binary', 'utf8');
    const blob = store.write('blob', content);
    expect(blob).toBe(gitWithInput(dir, ['hash-object', '--no-filters', '--stdin'], content));
    const tree = store.write(
      'tree',
      treeContent([
        { mode: '100644', name: 'a.b', oid: blob },
        { mode: '40000', name: 'a', oid: gitTree(dir, new Map([['x', { mode: '100755', oid: blob, perm: 0o755 }]])) },
        { mode: '120000', name: 'a-link', oid: blob },
        { mode: '100644', name: 'a0', oid: blob },
      ]),
    );
    const listing = `100644 blob ${blob}\ta.b\n040000 tree ${git(dir, 'rev-parse', `${tree}:a`).trim()}\ta\n120000 blob ${blob}\ta-link\n100644 blob ${blob}\ta0\n`;
    expect(tree).toBe(gitWithInput(dir, ['mktree'], listing));
    expect(git(dir, 'cat-file', '-p', `${blob}`)).toBe(content.toString('utf8'));
    git(dir, 'fsck', '--strict', '--no-dangling');
  });

  it('writing an object that is stored already changes nothing in it', () => {
    const dir = gitRepo();
    const store = storeOf(dir);
    const oid = store.write('blob', Buffer.from('same\n'));
    expect(store.write('blob', Buffer.from('same\n'))).toBe(oid);
    expect(store.has(oid)).toBe(true);
    expect(git(dir, 'cat-file', 'blob', oid)).toBe('same\n');
  });

  it('leaves the writing to git where the repository asks for what git does itself', () => {
    const own = gitRepo();
    const shared = gitRepo();
    git(shared, 'config', 'core.sharedRepository', 'group');
    const fsynced = gitRepo();
    git(fsynced, 'config', 'core.fsync', 'loose-object');
    const ctx = (dir: string) => ({ project: dir, root: dir, prefix: '', gitDir: join(dir, '.git'), commonDir: join(dir, '.git') });
    expect(looseObjectStore(ctx(own))).not.toBeNull();
    expect(looseObjectStore(ctx(shared))).toBeNull();
    expect(looseObjectStore(ctx(fsynced))).toBeNull();
  });
});

describe('the tree writer', () => {
  const entry = (oid: string, mode = '100644'): FileEntry => ({ mode, oid, perm: mode === '100755' ? 0o755 : 0o644 });

  it('writes the tree git writes, step after step, for names that sort apart and paths that turn from file to directory', () => {
    const dir = gitRepo();
    const store = storeOf(dir);
    const blob = (text: string): string => store.write('blob', Buffer.from(text));
    const [x, y, z] = [blob('x\n'), blob('y\n'), blob('z\n')];
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
      const writer = new TreeWriter(store, prefix);
      for (const step of steps) {
        const files = new Map(step);
        expect(writer.write(files)).toBe(gitTree(dir, files, prefix));
      }
    }
  });

  it('writes a kept tree again once it was pruned', () => {
    const dir = gitRepo();
    const store = storeOf(dir);
    const oid = store.write('blob', Buffer.from('x\n'));
    const files = new Map([['src/deep/a.ts', entry(oid)]]);
    const writer = new TreeWriter(store, '');
    const top = writer.write(files);
    const sub = git(dir, 'rev-parse', `${top}:src/deep`).trim();
    rmSync(join(dir, '.git', 'objects', sub.slice(0, 2), sub.slice(2)));
    expect(writer.write(new Map(files))).toBe(top);
    expect(git(dir, 'cat-file', '-t', sub).trim()).toBe('tree');
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
