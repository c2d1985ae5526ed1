import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCheckpoint, rollbackToCheckpoint } from '../../../src/checkpoints/git-checkpoints.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { git, gitRepo, writeFiles } from '../../helpers/git-repo.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * Ralph's git calls in a hostile setup: signing required with a signer that
 * always fails, hooks that fail and leave a trace, and a GIT_DIR and
 * GIT_INDEX_FILE inherited from the environment that point at another repository.
 */

const inherited = ['GIT_DIR', 'GIT_INDEX_FILE', 'GIT_WORK_TREE'] as const;
const saved = Object.fromEntries(inherited.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of inherited) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const HOOKS = ['pre-commit', 'commit-msg', 'reference-transaction', 'post-index-change', 'post-checkout'];

function hostileRepo(): { dir: string; hooks: string } {
  const dir = gitRepo({ 'a.txt': 'one\n' });
  git(dir, 'config', 'commit.gpgsign', 'true');
  git(dir, 'config', 'tag.gpgsign', 'true');
  git(dir, 'config', 'gpg.program', 'false');
  const hooks = tempDir('ralph-hooks-');
  for (const hook of HOOKS) {
    writeFiles(hooks, { [hook]: `#!/bin/sh\ntouch "${hooks}/ran-${hook}"\nexit 1\n` });
    chmodSync(join(hooks, hook), 0o755);
  }
  git(dir, 'config', 'core.hooksPath', hooks);
  return { dir, hooks };
}

describe("Ralph's git calls", () => {
  it('checkpoint and roll back with signing demanded, failing hooks installed and another repository in GIT_DIR/GIT_INDEX_FILE', async () => {
    const { dir, hooks } = hostileRepo();
    const other = gitRepo({ 'other.txt': 'elsewhere\n' });
    process.env['GIT_DIR'] = join(other, '.git');
    process.env['GIT_INDEX_FILE'] = join(other, '.git', 'index');
    process.env['GIT_WORK_TREE'] = other;
    const ws = new GitWorkspace(dir, createProcessRunner());
    const made = await createCheckpoint(ws, { loop: 1, now: 1_767_000_000_000 });
    expect(made.ok).toBe(true);
    if (!made.ok) return;
    writeFileSync(join(dir, 'a.txt'), 'two\n');
    writeFileSync(join(dir, 'b.txt'), 'new\n');
    const back = await rollbackToCheckpoint(ws, made.checkpoint, { attemptLabel: 'loop 1', now: 1_767_000_001_000 });
    expect(back.ok).toBe(true);
    // Checked before this test's own git calls, which do run the hooks.
    expect(readdirSync(hooks).filter((f) => f.startsWith('ran-'))).toEqual([]);
    for (const name of inherited) delete process.env[name];
    expect(git(dir, 'show', 'HEAD:a.txt')).toBe('one\n');
    expect(existsSync(join(dir, 'b.txt'))).toBe(false);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(other, 'status', '--porcelain')).toBe('');
    expect(git(other, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main\n');
    expect(git(dir, 'log', '-1', '--format=%an <%ae>|%G?', made.checkpoint.commit)).toBe('Ralph <ralph@localhost>|N\n');
  });
});
