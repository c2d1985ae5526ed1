import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoContext, type RepoContext } from '../../../src/checkpoints/git/git-plumbing.js';
import { createRalphRef, deleteRalphRef } from '../../../src/checkpoints/git/loose-refs.js';
import { git, gitRepo } from '../../helpers/git-repo.js';

/**
 * Ralph writes its own refs as git writes loose refs, and leaves every case
 * where git does more (or something is amiss) to git.
 */

const REF = 'refs/ralph/checkpoints/cp1-test';

async function repo(setup?: (dir: string) => void): Promise<{ dir: string; ctx: RepoContext; head: string }> {
  const dir = gitRepo();
  setup?.(dir);
  const ctx = await repoContext(dir);
  if (!ctx) throw new Error('not a repository');
  return { dir, ctx, head: git(dir, 'rev-parse', 'HEAD').trim() };
}

describe("Ralph's own refs", () => {
  it('are created and deleted as git would: git reads them, and nothing is left behind', async () => {
    const { dir, ctx, head } = await repo();
    expect(createRalphRef(ctx, REF, head)).toBe(true);
    expect(git(dir, 'rev-parse', REF).trim()).toBe(head);
    expect(existsSync(join(dir, '.git', `${REF}.lock`))).toBe(false);
    // An existing ref is never overwritten.
    expect(createRalphRef(ctx, REF, head)).toBe(false);
    // Nor deleted when it points elsewhere.
    expect(deleteRalphRef(ctx, REF, '0'.repeat(40))).toBe(false);
    expect(deleteRalphRef(ctx, REF, head)).toBe(true);
    expect(git(dir, 'for-each-ref', 'refs/ralph/')).toBe('');
    expect(deleteRalphRef(ctx, REF, head)).toBe(false);
  });

  it('are left to git when a lock is held, the ref is packed, or the repository logs every ref update', async () => {
    const locked = await repo();
    git(locked.dir, 'update-ref', REF, locked.head);
    writeFileSync(join(locked.dir, '.git', `${REF}.lock`), 'a git command is at work\n');
    expect(deleteRalphRef(locked.ctx, REF, locked.head)).toBe(false);
    expect(existsSync(join(locked.dir, '.git', `${REF}.lock`))).toBe(true);
    expect(git(locked.dir, 'rev-parse', REF).trim()).toBe(locked.head);

    const packed = await repo();
    git(packed.dir, 'update-ref', REF, packed.head);
    git(packed.dir, 'pack-refs', '--all');
    expect(deleteRalphRef(packed.ctx, REF, packed.head)).toBe(false);
    expect(createRalphRef(packed.ctx, REF, packed.head)).toBe(false);

    const logged = await repo((dir) => git(dir, 'config', 'core.logAllRefUpdates', 'always'));
    expect(createRalphRef(logged.ctx, REF, logged.head)).toBe(false);
  });
});
