import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoContext, type RepoContext } from '../../../src/checkpoints/git/git-plumbing.js';
import { withObjectWriter } from '../../../src/checkpoints/git/object-writer.js';
import { fileRefs, gitRefs, type RalphRefWriter } from '../../../src/checkpoints/git/ralph-refs.js';
import { git, gitRepo } from '../../helpers/git-repo.js';

/**
 * One conformance suite for both writers of Ralph's own refs: git's update-ref,
 * and the ref files Ralph writes itself where git would do nothing more. Each
 * must leave the repository as the other does.
 */

const REF = 'refs/ralph/checkpoints/cp1-test';

async function repo(setup?: (dir: string) => void): Promise<{ dir: string; ctx: RepoContext; head: string }> {
  const dir = gitRepo({ 'a.txt': 'a\n' });
  setup?.(dir);
  const ctx = await repoContext(dir);
  if (!ctx) throw new Error('not a repository');
  return { dir, ctx, head: git(dir, 'rev-parse', 'HEAD').trim() };
}

const create = (writer: RalphRefWriter, ctx: RepoContext, ref: string, oid: string): Promise<void> =>
  withObjectWriter(ctx, async (scoped) => {
    writer.prepare(scoped, 'ralph: test');
    await writer.create(scoped, ref, oid, 'ralph: test');
  });

describe.each([
  ['git update-ref', gitRefs],
  ['ref files where git would do no more', fileRefs],
])("Ralph's own refs written by %s", (_name, writer) => {
  it('are created and deleted: git reads them, nothing is left behind, an existing ref is never overwritten', async () => {
    const { dir, ctx, head } = await repo();
    await create(writer, ctx, REF, head);
    expect(git(dir, 'rev-parse', REF).trim()).toBe(head);
    expect(existsSync(join(dir, '.git', `${REF}.lock`))).toBe(false);
    const tree = git(dir, 'rev-parse', 'HEAD^{tree}').trim();
    await expect(create(writer, ctx, REF, tree)).rejects.toThrow();
    expect(git(dir, 'rev-parse', REF).trim()).toBe(head);
    // Nor deleted when it points elsewhere.
    expect(await writer.remove(ctx, REF, tree)).toBe(false);
    expect(await writer.remove(ctx, REF, head)).toBe(true);
    expect(git(dir, 'for-each-ref', 'refs/ralph/')).toBe('');
    expect(await writer.remove(ctx, REF, head)).toBe(false);
    git(dir, 'fsck', '--strict', '--no-dangling');
  });

  it('wait for no lock someone else holds: nothing changes and the lock stays', async () => {
    const { dir, ctx, head } = await repo();
    git(dir, 'update-ref', REF, head);
    writeFileSync(join(dir, '.git', `${REF}.lock`), 'a git command is at work\n');
    expect(await writer.remove(ctx, REF, head)).toBe(false);
    expect(existsSync(join(dir, '.git', `${REF}.lock`))).toBe(true);
    expect(git(dir, 'rev-parse', REF).trim()).toBe(head);
  });

  it('are deleted when packed, and never created over a packed one', async () => {
    const { dir, ctx, head } = await repo();
    git(dir, 'update-ref', REF, head);
    git(dir, 'pack-refs', '--all');
    await expect(create(writer, ctx, REF, head)).rejects.toThrow();
    expect(await writer.remove(ctx, REF, head)).toBe(true);
    expect(git(dir, 'for-each-ref', 'refs/ralph/')).toBe('');
  });

  it('are logged when the configuration, in whichever file, asks to log every ref update', async () => {
    const { dir, ctx, head } = await repo((d) => {
      writeFileSync(join(d, '.git', 'logging.inc'), '[core]\n\tlogAllRefUpdates = always\n');
      git(d, 'config', 'include.path', 'logging.inc');
    });
    await create(writer, ctx, REF, head);
    expect(git(dir, 'reflog', 'show', '--format=%gs', REF).trim()).toBe('ralph: test');
    expect(await writer.remove(ctx, REF, head)).toBe(true);
    expect(git(dir, 'for-each-ref', 'refs/ralph/')).toBe('');
  });
});
