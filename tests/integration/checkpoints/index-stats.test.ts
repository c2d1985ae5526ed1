import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readIndexStats, readIndexStatsOf, statKey } from '../../../src/checkpoints/capture/index-stats.js';
import { git, gitRepo } from '../../helpers/git-repo.js';

/** The index reader agrees with git on every index version git writes, and skips what git does not check. */
describe('readIndexStats', () => {
  for (const version of ['2', '3', '4']) {
    it(`reads index version ${version}: every stage-0 path with the stat data of the file`, () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 30; i += 1) files[`dir${i % 3}/sub/file-with-a-long-shared-prefix-${i}.txt`] = `${i}\n`;
      const dir = gitRepo(files);
      git(dir, 'update-index', '--index-version', version);
      if (version === '3') git(dir, 'update-index', '--skip-worktree', 'dir0/sub/file-with-a-long-shared-prefix-0.txt');
      git(dir, 'update-index', '--assume-unchanged', 'dir1/sub/file-with-a-long-shared-prefix-1.txt');
      git(dir, 'update-index', '--really-refresh');
      const stats = readIndexStats(readFileSync(join(dir, '.git', 'index')));
      expect(stats).not.toBeNull();
      const expected = git(dir, 'ls-files').trim().split('\n');
      const skipped = ['dir1/sub/file-with-a-long-shared-prefix-1.txt', ...(version === '3' ? ['dir0/sub/file-with-a-long-shared-prefix-0.txt'] : [])];
      expect([...(stats?.keys() ?? [])].sort()).toEqual(expected.filter((p) => !skipped.includes(p)).sort());
      const sample = 'dir2/sub/file-with-a-long-shared-prefix-29.txt';
      expect(stats?.get(sample)).toBe(statKey(lstatSync(join(dir, sample), { bigint: true })));
    });
  }

  it('leaves out entries whose ctime is not before the second given, and reads the same bytes once', () => {
    const dir = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const path = join(dir, '.git', 'index');
    const bytes = readFileSync(path);
    const ctime = Number(lstatSync(join(dir, 'a.txt'), { bigint: true }).ctimeNs / 1_000_000_000n);
    expect(readIndexStats(bytes, 20, ctime)?.size).toBe(0);
    expect([...(readIndexStats(bytes, 20, ctime + 1)?.keys() ?? [])].sort()).toEqual(['a.txt', 'b.txt']);
    const first = readIndexStatsOf(path, bytes, ctime + 1);
    expect(readIndexStatsOf(path, Buffer.from(bytes), ctime + 1)).toBe(first);
    expect(readIndexStatsOf(path, bytes, ctime)).not.toBe(first);
  });

  it('returns null for what is not an index', () => {
    expect(readIndexStats(Buffer.from('not an index'))).toBeNull();
    expect(readIndexStats(null)).toBeNull();
  });
});
