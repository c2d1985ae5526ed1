import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoContext, ralphGitDir, type RepoContext } from '../../../src/checkpoints/git/git-plumbing.js';
import { captureFiles } from '../../../src/checkpoints/capture/repo-state.js';
import { withObjectWriter } from '../../../src/checkpoints/git/object-writer.js';
import { StatCache } from '../../../src/checkpoints/capture/stat-cache.js';
import { git, gitRepo, writeFiles } from '../../helpers/git-repo.js';

async function contextOf(dir: string): Promise<RepoContext> {
  const ctx = await repoContext(dir);
  if (!ctx) throw new Error(`${dir} is not a repository`);
  return ctx;
}

const capture = async (ctx: RepoContext) => withObjectWriter(ctx, (scoped) => captureFiles(scoped, StatCache.load(ralphGitDir(scoped))));

/** What a checkpoint sees of the project's files, read with one listing of tracked and untracked files. */
describe('captureFiles', () => {
  it('sees tracked, untracked and wholly untracked directories capture after capture, as they come and go', async () => {
    const dir = gitRepo({ 'src/a.ts': 'a\n', '.gitignore': 'build/\n' });
    writeFiles(dir, { 'src/new/b.ts': 'b\n', 'src/new/deep/c.ts': 'c\n', 'build/out.js': 'ignored\n', 'loose.txt': 'loose\n' });
    mkdirSync(join(dir, 'empty/leaf'), { recursive: true });
    const ctx = await contextOf(dir);

    const first = await capture(ctx);
    expect([...first.files.keys()].sort()).toEqual(['.gitignore', 'loose.txt', 'src/a.ts', 'src/new/b.ts', 'src/new/deep/c.ts']);
    expect(first.emptyDirs).toEqual(['empty/leaf']);

    // The next capture lists untracked files in full alongside the rest: a file added since is seen.
    writeFiles(dir, { 'src/new/d.ts': 'd\n' });
    const second = await capture(ctx);
    expect([...second.files.keys()].sort()).toEqual(['.gitignore', 'loose.txt', 'src/a.ts', 'src/new/b.ts', 'src/new/d.ts', 'src/new/deep/c.ts']);

    // Once the directory is committed nothing is untracked in it any more, and nothing is lost.
    git(dir, 'add', 'src/new');
    git(dir, 'commit', '-q', '-m', 'new');
    rmSync(join(dir, 'loose.txt'));
    const third = await capture(ctx);
    expect([...third.files.keys()].sort()).toEqual(['.gitignore', 'src/a.ts', 'src/new/b.ts', 'src/new/d.ts', 'src/new/deep/c.ts']);
    expect(third.files.get('src/new/d.ts')?.oid).toBe(git(dir, 'rev-parse', 'HEAD:src/new/d.ts').trim());
  });

  it('digests the index entries of a project in a subdirectory exactly as `git ls-files -s` prints them', async () => {
    const dir = gitRepo({ 'app/one.txt': '1\n', 'app/two.txt': '2\n', 'other/x.txt': 'x\n' });
    writeFiles(dir, { 'app/untracked.txt': 'u\n' });
    const project = join(dir, 'app');
    const ctx = await contextOf(project);
    expect(ctx.prefix).toBe('app/');

    const captured = await capture(ctx);
    const listed = git(project, 'ls-files', '-z', '-s', '--cached');
    expect(captured.indexView).toBe(createHash('sha1').update(listed, 'latin1').digest('hex'));
    expect([...captured.files.keys()].sort()).toEqual(['one.txt', 'two.txt', 'untracked.txt']);
  });
});
