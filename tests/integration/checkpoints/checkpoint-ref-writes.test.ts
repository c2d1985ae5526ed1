import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCheckpoint, dropCheckpoint } from '../../../src/checkpoints/git-checkpoints.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { git, gitRepo } from '../../helpers/git-repo.js';

/**
 * Ralph's own refs (a checkpoint's) are created and deleted by git's
 * update-ref, so whatever git does for a ref (a lock, packed refs, a reflog
 * the repository asks for) is done.
 */

function workspace(dir: string): GitWorkspace {
  return new GitWorkspace(dir, createProcessRunner());
}

describe("a checkpoint's ref", () => {
  it('is created and deleted by git: nothing is left behind, and a ref that moved is not deleted', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    const ws = workspace(dir);
    const made = await createCheckpoint(ws, { loop: 1, now: 1_700_000_000_000 });
    if (!made.ok) throw new Error(made.reason);
    const ref = `refs/ralph/checkpoints/${made.checkpoint.id}`;
    expect(git(dir, 'rev-parse', ref).trim()).toBe(made.checkpoint.commit);
    expect(existsSync(join(dir, '.git', `${ref}.lock`))).toBe(false);
    expect(await dropCheckpoint(ws, made.checkpoint)).toEqual({ ok: true, dropped: true });
    expect(git(dir, 'for-each-ref', 'refs/ralph/checkpoints/')).toBe('');
    expect(await dropCheckpoint(ws, made.checkpoint)).toEqual({ ok: true, dropped: false });
  });

  it('is logged when the repository logs every ref update, and deleted when packed', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    git(dir, 'config', 'core.logAllRefUpdates', 'always');
    const ws = workspace(dir);
    const made = await createCheckpoint(ws, { loop: 1, now: 1_700_000_000_000 });
    if (!made.ok) throw new Error(made.reason);
    const ref = `refs/ralph/checkpoints/${made.checkpoint.id}`;
    expect(git(dir, 'reflog', 'show', '--format=%gs', ref).trim()).toBe('ralph: ralph checkpoint: loop 1');
    git(dir, 'pack-refs', '--all');
    expect(await dropCheckpoint(ws, made.checkpoint)).toEqual({ ok: true, dropped: true });
    expect(git(dir, 'for-each-ref', 'refs/ralph/checkpoints/')).toBe('');
  });

  it('is not created while another git command holds its lock: the checkpoint says so and nothing is changed', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    const ws = workspace(dir);
    const first = await createCheckpoint(ws, { loop: 1, now: 1_700_000_000_000 });
    if (!first.ok) throw new Error(first.reason);
    const lock = join(dir, '.git', 'refs', 'ralph', 'checkpoints', 'cp2-loyw3vu0.lock');
    writeFileSync(lock, 'a git command is at work\n');
    const second = await createCheckpoint(ws, { loop: 2, now: 1_700_000_001_000 });
    expect(second.ok).toBe(false);
    expect(existsSync(lock)).toBe(true);
    expect(git(dir, 'for-each-ref', '--format=%(refname)', 'refs/ralph/checkpoints/').trim()).toBe(`refs/ralph/checkpoints/${first.checkpoint.id}`);
  });
});
