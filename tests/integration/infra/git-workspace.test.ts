import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExecaRunner } from '../../../src/infra/execa-runner.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { git, gitRepo } from '../../helpers/git-repo.js';

describe('GitWorkspace.snapshotTree', () => {
  it('sees untracked files and leaves the index and work tree alone', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    writeFileSync(join(dir, 'new.txt'), 'new\n');
    const ws = new GitWorkspace(dir, createExecaRunner());
    const tree = await ws.snapshotTree();
    expect(git(dir, 'show', `${tree}:new.txt`)).toBe('new\n');
    expect(git(dir, 'status', '--porcelain')).toBe('?? new.txt\n');
    expect(await ws.changedPaths('HEAD', tree)).toEqual(['new.txt']);
  });

  it('catches a same-size rewrite with unchanged timestamps (racy git entries stay racy in the private index)', async () => {
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
    const tree = await new GitWorkspace(dir, createExecaRunner()).snapshotTree();
    expect(git(dir, 'show', `${tree}:v.txt`)).toBe('v2\n');
  });

  it('excludes Ralph state from changed paths, also for a project in a subdirectory', async () => {
    const repo = gitRepo({ 'pkg/.ralph/PROMPT.md': 'p\n', 'pkg/src.txt': '1\n' });
    const dir = join(repo, 'pkg');
    const ws = new GitWorkspace(dir, createExecaRunner());
    const before = await ws.snapshotTree();
    writeFileSync(join(dir, '.ralph', 'status.json'), '{}');
    writeFileSync(join(dir, 'src.txt'), '2\n');
    writeFileSync(join(repo, 'outside.txt'), 'x\n');
    const after = await ws.snapshotTree();
    expect(await ws.changedPaths(before, after)).toEqual(['outside.txt', 'pkg/src.txt']);
  });
});
