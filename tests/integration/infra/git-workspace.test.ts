import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { createCheckpoint } from '../../../src/checkpoints/git-checkpoints.js';
import { createProgressProbe } from '../../../src/infra/progress-probe.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { git, gitRepo } from '../../helpers/git-repo.js';

describe('private index copies', () => {
  it('a checkpoint catches a same-size rewrite with unchanged timestamps (racy entries stay racy)', async () => {
    const dir = gitRepo({ 'README.md': 'r\n' });
    git(dir, 'config', 'core.trustctime', 'false');
    const file = join(dir, 'v.txt');
    const past = new Date('2020-01-01T00:00:00Z');
    writeFileSync(file, 'v1\n');
    utimesSync(file, past, past);
    git(dir, 'add', 'v.txt');
    git(dir, 'commit', '-q', '-m', 'v1');
    // The index written in the same second as the entry: git must compare contents.
    utimesSync(join(dir, '.git', 'index'), past, past);
    writeFileSync(file, 'v2\n');
    utimesSync(file, past, past);
    const made = await createCheckpoint(new GitWorkspace(dir, createProcessRunner()), { loop: 1, now: Date.now() });
    expect(made.ok).toBe(true);
    if (made.ok) expect(git(dir, 'show', `${made.checkpoint.commit}:v.txt`)).toBe('v2\n');
    expect(git(dir, 'diff', '--cached', '--name-only')).toBe('');
  });
});

describe('git progress probe', () => {
  it('counts committed, staged, unstaged and untracked changes, never Ralph state or ignored files', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', '.gitignore': 'build/\n', '.ralph/PROMPT.md': 'p\n' });
    const probe = await createProgressProbe(dir, createProcessRunner());
    await probe.begin();
    writeFileSync(join(dir, 'a.txt'), 'changed\n');
    writeFileSync(join(dir, 'b.txt'), 'staged\n');
    git(dir, 'add', 'b.txt');
    writeFileSync(join(dir, 'new.txt'), 'untracked\n');
    writeFileSync(join(dir, 'c.txt'), 'committed\n');
    git(dir, 'commit', '-q', '-m', 'agent commit', '--', 'c.txt');
    writeFileSync(join(dir, '.ralph', 'status.json'), '{}');
    mkdirSync(join(dir, 'build'));
    writeFileSync(join(dir, 'build', 'out.js'), 'ignored\n');
    const facts = await probe.measure();
    expect(facts).toMatchObject({ method: 'git', committed: true, changedFiles: ['a.txt', 'b.txt', 'c.txt', 'new.txt'], filesChanged: 4 });
  });

  it('a file already dirty before the iteration counts only when it changes again', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    writeFileSync(join(dir, 'a.txt'), 'dirty before\n');
    const probe = await createProgressProbe(dir, createProcessRunner());
    await probe.begin();
    expect((await probe.measure()).filesChanged).toBe(0);
    writeFileSync(join(dir, 'a.txt'), 'dirty before, and edited again\n');
    expect((await probe.measure()).changedFiles).toEqual(['a.txt']);
  });

  it('paths of a project in a subdirectory are reported from the top level, its .ralph excluded', async () => {
    const repo = gitRepo({ 'pkg/.ralph/PROMPT.md': 'p\n', 'pkg/src.txt': '1\n' });
    const probe = await createProgressProbe(join(repo, 'pkg'), createProcessRunner());
    await probe.begin();
    writeFileSync(join(repo, 'pkg', '.ralph', 'status.json'), '{}');
    writeFileSync(join(repo, 'pkg', 'src.txt'), '2\n');
    writeFileSync(join(repo, 'outside.txt'), 'x\n');
    expect((await probe.measure()).changedFiles).toEqual(['outside.txt', 'pkg/src.txt']);
  });
});
