import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { listCheckpoints, rollbackToCheckpoint } from '../../../src/checkpoints/git-checkpoints.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { git, gitRepo } from '../../helpers/git-repo.js';

/**
 * Older versions kept checkpoints in the stash list as `ralph checkpoint:`
 * entries. On first use they move to refs/ralph/checkpoints/, the user's own
 * entries stay where they were, and a moved checkpoint can still be restored.
 */

/** A checkpoint exactly as the stash-based versions stored it. */
function legacyCheckpoint(dir: string, id: string, loop: number): string {
  const index = join(dir, '.git', `legacy-${id}`);
  const env = { ...process.env, GIT_INDEX_FILE: index };
  execFileSync('cp', [join(dir, '.git', 'index'), index]);
  const indexTree = git(dir, 'write-tree').trim();
  execFileSync('git', ['add', '-A'], { cwd: dir, env });
  const worktree = execFileSync('git', ['write-tree'], { cwd: dir, env, encoding: 'utf8' }).trim();
  rmSync(index);
  const head = git(dir, 'rev-parse', 'HEAD').trim();
  const indexCommit = execFileSync('git', ['commit-tree', indexTree, '-p', head, '-m', `index on main: ralph checkpoint: loop ${loop}`], {
    cwd: dir,
    encoding: 'utf8',
  }).trim();
  const message = [
    `ralph checkpoint: loop ${loop}`,
    '',
    `Ralph-Checkpoint: ${id}`,
    `Ralph-Loop: ${loop}`,
    `Ralph-Created-At: 2026-01-0${loop}T00:00:00.000Z`,
    `Ralph-Head: ${head}`,
    'Ralph-Branch: refs/heads/main',
    `Ralph-Worktree-Tree: ${worktree}`,
    '',
  ].join('\n');
  const commit = execFileSync('git', ['commit-tree', worktree, '-p', head, '-p', indexCommit, '-F', '-'], {
    cwd: dir,
    input: message,
    encoding: 'utf8',
  }).trim();
  git(dir, 'stash', 'store', '-m', `ralph checkpoint: loop ${loop}`, commit);
  return commit;
}

describe('checkpoints of older versions in the stash list', () => {
  it("move to refs/ralph/checkpoints on first use; the user's own stash entries stay, in order", async () => {
    const dir = gitRepo({ 'a.txt': 'v1\n', 'b.txt': 'b\n' });
    writeFileSync(join(dir, 'a.txt'), 'user stash 1\n');
    git(dir, 'stash', 'push', '-q', '-m', 'user one');
    writeFileSync(join(dir, 'a.txt'), 'checkpoint one\n');
    writeFileSync(join(dir, 'new.txt'), 'untracked at checkpoint one\n');
    legacyCheckpoint(dir, 'cp1-old', 1);
    rmSync(join(dir, 'new.txt'));
    git(dir, 'checkout', '-q', '--', 'a.txt');
    writeFileSync(join(dir, 'a.txt'), 'user stash 2\n');
    git(dir, 'stash', 'push', '-q', '-m', 'user two');
    legacyCheckpoint(dir, 'cp2-old', 2);
    const userEntries = git(dir, 'stash', 'list', '--format=%H %gs')
      .split('\n')
      .filter((l) => !l.includes('ralph checkpoint'));

    const messages: string[] = [];
    const ws = new GitWorkspace(dir, createProcessRunner());
    const listed = await listCheckpoints(ws, { warn: (m) => messages.push(m) });
    expect(listed.ok && listed.checkpoints.map((c) => c.id)).toEqual(['cp1-old', 'cp2-old']);
    expect(messages.join('\n')).toContain('Moved 2 Ralph checkpoints out of your git stash list');
    expect(git(dir, 'stash', 'list', '--format=%H %gs').split('\n')).toEqual(userEntries);
    expect(git(dir, 'stash', 'list', '--format=%gs')).toBe('On main: user two\nOn main: user one\n');

    // A second run finds nothing more to move.
    const again: string[] = [];
    await listCheckpoints(ws, { warn: (m) => again.push(m) });
    expect(again).toEqual([]);

    // The moved checkpoint restores its files; refs it never recorded are left alone.
    writeFileSync(join(dir, 'a.txt'), 'agent\n');
    git(dir, 'commit', '-qam', 'agent');
    git(dir, 'tag', 'agent-tag');
    const cp = listed.ok ? listed.checkpoints[0] : undefined;
    if (!cp) throw new Error('no checkpoint');
    const result = await rollbackToCheckpoint(ws, cp, { attemptLabel: 'loop 1' });
    expect(result.ok).toBe(true);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('checkpoint one\n');
    expect(readFileSync(join(dir, 'new.txt'), 'utf8')).toBe('untracked at checkpoint one\n');
    expect(git(dir, 'log', '-1', '--format=%s', 'main').trim()).toBe('initial');
    expect(git(dir, 'tag', '--list', 'agent-tag').trim()).toBe('agent-tag');
    expect(git(dir, 'stash', 'list', '--format=%gs')).toBe('On main: user two\nOn main: user one\n');
  });
});
