import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import {
  createCheckpoint,
  dropCheckpoint,
  listCheckpoints,
  pruneCheckpoints,
  rollbackToCheckpoint,
  type Checkpoint,
} from '../../../src/checkpoints/git-checkpoints.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { createProgressProbe } from '../../../src/infra/progress-probe.js';
import { git, gitRepo, writeFiles } from '../../helpers/git-repo.js';
import { fingerprint, readTreeFiles } from '../../helpers/repo-fingerprint.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * Checkpoints live under refs/ralph/checkpoints/, record raw bytes and exact
 * modes, never fire the user's hooks, and a rollback restores everything the
 * agent can change — checked against a byte-for-byte fingerprint of the repo.
 */

let now = 1_700_000_000_000;
const tick = (): number => (now += 1_000);

function workspace(dir: string): GitWorkspace {
  return new GitWorkspace(dir, createProcessRunner());
}

async function checkpoint(dir: string, loop = 1): Promise<Checkpoint> {
  const made = await createCheckpoint(workspace(dir), { loop, now: tick() });
  if (!made.ok) throw new Error(made.reason);
  return made.checkpoint;
}

async function rollback(dir: string, cp: Checkpoint) {
  return rollbackToCheckpoint(workspace(dir), cp, { attemptLabel: 'loop 1', now: tick() });
}

const savedTmp = process.env['TMPDIR'];
afterEach(() => {
  if (savedTmp === undefined) delete process.env['TMPDIR'];
  else process.env['TMPDIR'] = savedTmp;
});

describe('checkpoints under refs/ralph/checkpoints', () => {
  it('leave the stash list, the work tree and the index exactly as they were', async () => {
    const dir = gitRepo({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    writeFileSync(join(dir, 'a.txt'), 'edited\n');
    git(dir, 'stash', 'push', '-q', '-m', 'user work');
    writeFileSync(join(dir, 'b.txt'), 'staged\n');
    git(dir, 'add', 'b.txt');
    writeFileSync(join(dir, 'new.txt'), 'untracked\n');
    const before = fingerprint(dir);
    const cp = await checkpoint(dir);
    expect(fingerprint(dir)).toEqual(before);
    expect(git(dir, 'stash', 'list', '--format=%gs').trim()).toBe('On main: user work');
    expect(git(dir, 'rev-parse', `refs/ralph/checkpoints/${cp.id}`).trim()).toBe(cp.commit);
    expect(git(dir, 'show', `${cp.commit}:new.txt`)).toBe('untracked\n');
    expect(git(dir, 'show', `${cp.commit}:b.txt`)).toBe('staged\n');
  });

  it("fire none of the user's hooks and keep temporary files out of the shared temp dir", async () => {
    const dir = gitRepo({ 'a.txt': 'one\n' });
    const log = join(dir, '..', `${dir.split('/').pop() ?? 'x'}-hooks.log`);
    const hooks = join(dir, '.git', 'hooks');
    git(dir, 'config', 'core.fsmonitor', join(hooks, 'fsmonitor-watchman'));
    for (const name of [
      'reference-transaction',
      'post-index-change',
      'post-checkout',
      'pre-commit',
      'post-commit',
      'post-rewrite',
      'pre-auto-gc',
      'fsmonitor-watchman',
    ]) {
      writeFileSync(join(hooks, name), `#!/bin/sh\necho ${name} >> '${log}'\nexit 0\n`);
      chmodSync(join(hooks, name), 0o755);
    }
    const privateTmp = tempDir('ralph-tmp-');
    process.env['TMPDIR'] = privateTmp;
    writeFileSync(join(dir, 'a.txt'), 'before\n');
    const probe = await createProgressProbe(dir, createProcessRunner());
    await probe.begin();
    const cp = await checkpoint(dir);
    writeFileSync(join(dir, 'a.txt'), 'agent\n');
    await probe.measure();
    git(dir, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', 'commit', '-qam', 'agent');
    git(dir, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', 'tag', 'agent-tag');
    const result = await rollback(dir, cp);
    expect(result.ok).toBe(true);
    await dropCheckpoint(workspace(dir), cp);
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('');
    expect(readdirSync(privateTmp)).toEqual([]);
  });

  it('remove temporary files a killed run left in the git dir', async () => {
    const dir = gitRepo();
    mkdirSync(join(dir, '.git', 'ralph'), { recursive: true });
    // PID 2^22+1 is above Linux's pid_max: no live process has it.
    writeFileSync(join(dir, '.git', 'ralph', 'tmp-4194305-abc-1-index'), 'left by kill -9');
    await checkpoint(dir);
    expect(readdirSync(join(dir, '.git', 'ralph')).filter((n) => n.startsWith('tmp-'))).toEqual([]);
  });

  it('are listed, dropped and pruned by ref, oldest pruned first', async () => {
    const dir = gitRepo();
    const ids: string[] = [];
    for (let loop = 1; loop <= 4; loop += 1) ids.push((await checkpoint(dir, loop)).id);
    const listed = await listCheckpoints(workspace(dir));
    expect(listed.ok && listed.checkpoints.map((c) => c.id)).toEqual(ids);
    const pruned = await pruneCheckpoints(workspace(dir), 2);
    expect(pruned.ok && pruned.dropped).toEqual(ids.slice(0, 2));
    expect(git(dir, 'for-each-ref', '--format=%(refname)', 'refs/ralph/checkpoints/').trim().split('\n')).toEqual(
      ids.slice(2).map((id) => `refs/ralph/checkpoints/${id}`),
    );
    const dropped = await dropCheckpoint(workspace(dir), ids[3] as string);
    expect(dropped.ok && dropped.dropped).toBe(true);
    expect(git(dir, 'stash', 'list')).toBe('');
  });
});

describe('checkpoints of loops in several worktrees of one repository', () => {
  it('never collide, and each worktree lists, prunes and rolls back only its own', async () => {
    const main = gitRepo({ 'a.txt': 'main\n' });
    const other = join(tempDir('ralph-cp-worktree-'), 'wt');
    git(main, 'worktree', 'add', '-q', '-b', 'side', other);
    // The same loop number at the same moment, as parallel loops of a queue start.
    const at = tick();
    const [inMain, inOther] = await Promise.all([
      createCheckpoint(workspace(main), { loop: 1, now: at }),
      createCheckpoint(workspace(other), { loop: 1, now: at }),
    ]);
    if (!inMain.ok || !inOther.ok) throw new Error(`checkpoint failed: ${JSON.stringify([inMain, inOther])}`);
    expect(inMain.checkpoint.id).not.toBe(inOther.checkpoint.id);
    expect(inOther.checkpoint.id.endsWith('-wt')).toBe(true);

    const listed = async (dir: string) => {
      const r = await listCheckpoints(workspace(dir));
      if (!r.ok) throw new Error(r.reason);
      return r.checkpoints.map((c) => c.id);
    };
    expect(await listed(main)).toEqual([inMain.checkpoint.id]);
    expect(await listed(other)).toEqual([inOther.checkpoint.id]);

    const pruned = await pruneCheckpoints(workspace(main), 0);
    expect(pruned.ok && pruned.dropped).toEqual([inMain.checkpoint.id]);
    expect(await listed(other)).toEqual([inOther.checkpoint.id]);

    writeFileSync(join(other, 'a.txt'), 'agent\n');
    const result = await rollback(other, inOther.checkpoint);
    expect(result.ok).toBe(true);
    expect(readFileSync(join(other, 'a.txt'), 'utf8')).toBe('main\n');
  });
});

describe('checkpoints of two projects in one repository', () => {
  it('are listed and pruned by the project that made them only', async () => {
    const repo = gitRepo({ 'a/x.txt': 'a\n', 'b/y.txt': 'b\n' });
    const made = await Promise.all([join(repo, 'a'), join(repo, 'b')].map((dir) => createCheckpoint(workspace(dir), { loop: 1, now: tick() })));
    const ids = made.map((m) => (m.ok ? m.checkpoint.id : m.reason));
    const listed = async (dir: string) => {
      const r = await listCheckpoints(workspace(dir));
      if (!r.ok) throw new Error(r.reason);
      return r.checkpoints.map((c) => c.id);
    };
    expect(await listed(join(repo, 'a'))).toEqual([ids[0]]);
    expect(await listed(join(repo, 'b'))).toEqual([ids[1]]);
    await pruneCheckpoints(workspace(join(repo, 'a')), 0);
    expect(await listed(join(repo, 'b'))).toEqual([ids[1]]);
  });
});

describe('when no checkpoint can be made', () => {
  it('a stale index.lock or an unreadable file fails with a cause and a fix, and changes nothing', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    writeFileSync(join(dir, '.git', 'index.lock'), '');
    const locked = await createCheckpoint(workspace(dir), { loop: 1, now: tick() });
    expect(locked).toMatchObject({ ok: false, problem: 'index-locked' });
    if (!locked.ok) {
      expect(locked.cause).toContain('index.lock');
      expect(locked.fix).toContain('--no-checkpoint');
    }
    expect(git(dir, 'for-each-ref', 'refs/ralph/checkpoints/')).toBe('');
    rmSync(join(dir, '.git', 'index.lock'));
    writeFileSync(join(dir, 'secret.txt'), 'no read permission\n');
    chmodSync(join(dir, 'secret.txt'), 0o000);
    const unreadable = await createCheckpoint(workspace(dir), { loop: 1, now: tick() });
    chmodSync(join(dir, 'secret.txt'), 0o600);
    // Root reads anything; the check only means something for an ordinary user.
    if (process.getuid?.() !== 0) {
      expect(unreadable).toMatchObject({ ok: false, problem: 'unreadable-file' });
      if (!unreadable.ok) expect(unreadable.cause).toContain('secret.txt');
      expect(git(dir, 'for-each-ref', 'refs/ralph/checkpoints/')).toBe('');
    }
  });
});

describe('rollback restores the exact bytes and modes', () => {
  it('whatever autocrlf, eol, ident and clean/smudge filters say', async () => {
    const dir = gitRepo({ 'README.md': '# r\n' });
    git(dir, 'config', 'core.autocrlf', 'true');
    git(dir, 'config', 'filter.lossy.clean', 'tr a-z A-Z');
    git(dir, 'config', 'filter.lossy.smudge', 'cat');
    git(dir, 'config', 'filter.lossy.required', 'true');
    writeFiles(dir, { '.gitattributes': '*.sh eol=crlf\n*.id ident\n*.up filter=lossy\n*.txt text\n' });
    writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\necho lf only\n');
    writeFileSync(join(dir, 'dos.txt'), 'crlf\r\nlines\r\n');
    writeFileSync(join(dir, 'mixed.txt'), 'a\nb\r\nc');
    writeFileSync(join(dir, 'x.id'), '$Id$\n');
    writeFileSync(join(dir, 'lower.up'), 'lowercase input the clean filter would lose\n');
    writeFileSync(join(dir, '.ralphrc'), 'SECRET_SETTING=1\n');
    writeFileSync(join(dir, 'ro.txt'), 'read only\n');
    writeFileSync(join(dir, 'group.txt'), 'group\n');
    chmodSync(join(dir, 'run.sh'), 0o755);
    chmodSync(join(dir, '.ralphrc'), 0o600);
    chmodSync(join(dir, 'ro.txt'), 0o400);
    chmodSync(join(dir, 'group.txt'), 0o660);
    const before = fingerprint(dir);
    const cp = await checkpoint(dir);
    for (const f of ['run.sh', 'dos.txt', 'mixed.txt', 'x.id', 'lower.up', '.ralphrc', 'group.txt']) writeFileSync(join(dir, f), 'agent\n');
    chmodSync(join(dir, 'ro.txt'), 0o644);
    rmSync(join(dir, 'run.sh'));
    const result = await rollback(dir, cp);
    expect(result.ok).toBe(true);
    expect(fingerprint(dir)).toEqual(before);
  });

  it('file names that are not UTF-8 or hold a newline round-trip as bytes', async () => {
    const dir = gitRepo();
    const odd = [
      Buffer.from([0x66, 0xff, 0xfe, 0x2e, 0x74]),
      Buffer.from('new\nline'),
      Buffer.from('"quoted"'),
      Buffer.from('back\\slash'),
      Buffer.from('tab\there'),
    ];
    for (const name of odd) writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), name]), name);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'odd names');
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), odd[0] as Buffer]), 'dirty');
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0xc0, 0x80])]), 'untracked, invalid UTF-8');
    const before = fingerprint(dir);
    const cp = await checkpoint(dir);
    for (const name of odd) rmSync(Buffer.concat([Buffer.from(`${dir}/`), name]));
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0xfa])]), 'agent file');
    const result = await rollback(dir, cp);
    expect(result.ok).toBe(true);
    expect(fingerprint(dir)).toEqual(before);
  });
});

describe('rollback scope, symlinks and the revert list', () => {
  it('in a monorepo touches only the project directory and says how to get a reverted file back', async () => {
    const repo = gitRepo({ 'packages/app/src/a.ts': 'app v1\n', 'packages/lib/l.ts': 'lib v1\n', 'root.txt': 'root\n' });
    const app = join(repo, 'packages', 'app');
    const cp = await checkpoint(app);
    writeFileSync(join(app, 'src', 'a.ts'), 'agent edit\n');
    writeFileSync(join(app, 'src', 'new.ts'), 'agent new\n');
    // The user keeps working elsewhere in the repository during the iteration.
    writeFileSync(join(repo, 'packages', 'lib', 'l.ts'), 'user edit in another package\n');
    writeFileSync(join(repo, 'root.txt'), 'user edit at the top\n');
    git(repo, 'add', 'packages/lib/l.ts', 'packages/app/src/a.ts');
    const result = await rollback(app, cp);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(readFileSync(join(app, 'src', 'a.ts'), 'utf8')).toBe('app v1\n');
    expect(existsSync(join(app, 'src', 'new.ts'))).toBe(false);
    expect(readFileSync(join(repo, 'packages', 'lib', 'l.ts'), 'utf8')).toBe('user edit in another package\n');
    expect(readFileSync(join(repo, 'root.txt'), 'utf8')).toBe('user edit at the top\n');
    // The user's staging elsewhere stays; the project's part of the index is the checkpoint's.
    expect(git(repo, 'diff', '--cached', '--name-only')).toBe('packages/lib/l.ts\n');
    expect(result.report.reverted).toEqual(['src/a.ts', 'src/new.ts']);
    expect(result.restoreCommand).toBe(`git restore --source=${result.attemptRef ?? ''} -- <path>`);
    git(app, 'restore', `--source=${result.attemptRef ?? ''}`, '--', 'src/a.ts');
    expect(readFileSync(join(app, 'src', 'a.ts'), 'utf8')).toBe('agent edit\n');
  });

  it('never goes through a directory the agent replaced with a symlink to outside', async () => {
    const outside = tempDir('ralph-outside-');
    writeFiles(outside, { 'keep.txt': 'outside file\n', 'a.txt': 'outside a\n' });
    const outsideBefore = readTreeFiles(outside);
    const dir = gitRepo({ 'out/a.txt': 'inside a\n', 'out/sub/b.txt': 'inside b\n', 'keep.txt': 'k\n' });
    const before = fingerprint(dir);
    const cp = await checkpoint(dir);
    rmSync(join(dir, 'out'), { recursive: true });
    symlinkSync(outside, join(dir, 'out'));
    const result = await rollback(dir, cp);
    expect(result.ok).toBe(true);
    expect(readTreeFiles(outside)).toEqual(outsideBefore);
    expect(fingerprint(dir)).toEqual(before);
  });
});

describe('a checkpoint taken while a tracked directory is a link to outside', () => {
  it('records the link, never the file behind it, and a rollback brings the link back', async () => {
    const outside = tempDir('ralph-outside-');
    writeFiles(outside, { 'gen.txt': 'outside file\n' });
    const outsideBefore = readTreeFiles(outside);
    const dir = gitRepo({ 'out/gen.txt': 'inside\n', 'keep.txt': 'k\n' });
    rmSync(join(dir, 'out'), { recursive: true });
    symlinkSync(outside, join(dir, 'out'));
    const before = fingerprint(dir);
    const cp = await checkpoint(dir);
    expect(() => git(dir, 'show', `${cp.commit}:out/gen.txt`)).toThrow();
    rmSync(join(dir, 'out'));
    writeFiles(dir, { 'out/gen.txt': 'agent\n' });
    const result = await rollback(dir, cp);
    expect(result.ok).toBe(true);
    expect(fingerprint(dir)).toEqual(before);
    expect(readTreeFiles(outside)).toEqual(outsideBefore);
  });
});

describe('rollback restores everything the agent can change', () => {
  it('branches, tags, stash entries, an in-progress merge, intent-to-add entries and empty directories', async () => {
    const dir = gitRepo({ 'a.txt': 'base\n', 'c.txt': 'c\n' });
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(dir, 'a.txt'), 'feature\n');
    git(dir, 'commit', '-qam', 'user work only on feature');
    const featureTip = git(dir, 'rev-parse', 'HEAD').trim();
    git(dir, 'checkout', '-q', 'main');
    writeFileSync(join(dir, 'a.txt'), 'main\n');
    git(dir, 'commit', '-qam', 'main work');
    git(dir, 'tag', 'v1');
    git(dir, 'tag', '-a', '-m', 'annotated', 'v1a');
    writeFileSync(join(dir, 'c.txt'), 'stash one\n');
    git(dir, 'stash', 'push', '-q', '-m', 'user stash 1');
    writeFileSync(join(dir, 'c.txt'), 'stash two\n');
    git(dir, 'stash', 'push', '-q', '-m', 'user stash 2');
    // A merge with a conflict in progress, an intent-to-add file, an empty directory.
    expect(() => git(dir, 'merge', 'feature')).toThrow();
    writeFileSync(join(dir, 'ita.txt'), 'intent to add\n');
    git(dir, 'add', '-N', 'ita.txt');
    mkdirSync(join(dir, 'empty', 'deeper'), { recursive: true });
    const before = fingerprint(dir);
    const cp = await checkpoint(dir);

    // The agent: aborts the merge, moves feature, drops the user's stash, retags, commits, deletes the empty dir.
    git(dir, 'rm', '-q', '--cached', 'ita.txt');
    git(dir, 'merge', '--abort');
    git(dir, 'branch', '-f', 'feature', 'main');
    git(dir, 'stash', 'clear');
    git(dir, 'tag', '-d', 'v1');
    git(dir, 'tag', '-f', 'v1a', 'HEAD~1');
    git(dir, 'tag', 'agent-tag');
    writeFileSync(join(dir, 'c.txt'), 'agent\n');
    git(dir, 'commit', '-qam', 'agent commit');
    git(dir, 'checkout', '-q', '-b', 'agent-branch');
    rmSync(join(dir, 'empty'), { recursive: true });
    mkdirSync(join(dir, 'agent-empty'));

    const result = await rollback(dir, cp);
    expect(result.ok).toBe(true);
    expect(fingerprint(dir)).toEqual(before);
    expect(git(dir, 'rev-parse', 'feature').trim()).toBe(featureTip);
    expect(git(dir, 'stash', 'list', '--format=%gs')).toBe('On main: user stash 2\nOn main: user stash 1\n');
    // The attempt's refs are kept as the agent left them.
    const attempt = result.ok ? (result.attemptRef ?? '').replace(/\/files$/, '') : '';
    expect(git(dir, 'log', '-1', '--format=%s', `${attempt}/refs/heads/agent-branch`).trim()).toBe('agent commit');
    expect(git(dir, 'rev-parse', `${attempt}/refs/tags/agent-tag`).trim()).toBe(git(dir, 'rev-parse', 'main').trim());
    expect(git(dir, 'rev-parse', `${attempt}/refs/heads/feature`).trim()).toBe(git(dir, 'rev-parse', 'main').trim());
    expect(git(dir, 'show', `${result.ok ? result.attemptRef : ''}:c.txt`)).toBe('agent\n');
  });

  it('a rebase in progress and a detached HEAD', async () => {
    const dir = gitRepo({ 'a.txt': '1\n' });
    git(dir, 'checkout', '-q', '-b', 'topic');
    writeFileSync(join(dir, 'a.txt'), 'topic\n');
    git(dir, 'commit', '-qam', 'topic');
    git(dir, 'checkout', '-q', 'main');
    writeFileSync(join(dir, 'a.txt'), 'main\n');
    git(dir, 'commit', '-qam', 'main');
    git(dir, 'checkout', '-q', 'topic');
    expect(() => git(dir, 'rebase', 'main')).toThrow();
    const before = fingerprint(dir);
    const cp = await checkpoint(dir);
    git(dir, 'rebase', '--abort');
    git(dir, 'checkout', '-q', '--detach', 'main');
    writeFileSync(join(dir, 'a.txt'), 'agent\n');
    const result = await rollback(dir, cp);
    expect(result.ok).toBe(true);
    expect(fingerprint(dir)).toEqual(before);
  });

  it('an empty directory the agent put an ignored file in: the directory stays, the ignored file is kept, nothing else differs', async () => {
    const dir = gitRepo({ 'a.txt': '1\n', '.gitignore': '*.log\n' });
    mkdirSync(join(dir, 'build'));
    const cp = await checkpoint(dir);
    writeFileSync(join(dir, 'build', 'out.log'), 'agent build output\n');
    writeFileSync(join(dir, 'a.txt'), 'agent\n');
    const result = await rollback(dir, cp);
    expect(result.ok).toBe(true);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('1\n');
    expect(readFileSync(join(dir, 'build', 'out.log'), 'utf8')).toBe('agent build output\n');
  });

  it('says what it could not restore and does not claim success (a nested repository the agent committed in)', async () => {
    const dir = gitRepo({ 'a.txt': '1\n' });
    const nested = join(dir, 'vendor', 'tool');
    gitRepo({ 'n.txt': 'nested\n' }, (mkdirSync(nested, { recursive: true }), nested));
    const cp = await checkpoint(dir);
    writeFileSync(join(nested, 'n.txt'), 'agent\n');
    git(nested, 'commit', '-qam', 'agent in the nested repo');
    writeFileSync(join(dir, 'a.txt'), 'agent\n');
    const result = await rollback(dir, cp);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toContain('nested repository vendor/tool');
    expect(result.changed).toBe(true);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('1\n');
  });
});

describe('the stat shortcut of a warm cache', () => {
  it('still sees a same-size rewrite with the old mtime, a chmod, and a change git was told to assume away', async () => {
    const dir = gitRepo({ 'a.txt': 'aaaa\n', 'b.txt': 'bbbb\n', 'c.txt': 'cccc\n', 'd.txt': 'dddd\n' });
    const past = new Date('2020-01-01T00:00:00Z');
    for (const f of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) utimesSync(join(dir, f), past, past);
    git(dir, 'update-index', '--really-refresh');
    const first = await checkpoint(dir);
    expect(git(dir, 'show', `${first.commit}:a.txt`)).toBe('aaaa\n');
    writeFileSync(join(dir, 'a.txt'), 'AAAA\n');
    utimesSync(join(dir, 'a.txt'), past, past);
    chmodSync(join(dir, 'b.txt'), 0o600);
    git(dir, 'update-index', '--assume-unchanged', 'c.txt');
    writeFileSync(join(dir, 'c.txt'), 'CCCC\n');
    utimesSync(join(dir, 'c.txt'), past, past);
    const before = fingerprint(dir);
    const second = await checkpoint(dir);
    expect(git(dir, 'show', `${second.commit}:a.txt`)).toBe('AAAA\n');
    expect(git(dir, 'show', `${second.commit}:c.txt`)).toBe('CCCC\n');
    writeFileSync(join(dir, 'a.txt'), 'agent\n');
    chmodSync(join(dir, 'b.txt'), 0o644);
    writeFileSync(join(dir, 'c.txt'), 'agent\n');
    const result = await rollback(dir, second);
    expect(result.ok).toBe(true);
    expect(fingerprint(dir)).toEqual(before);
  });
});

describe('the stat shortcut once the index has settled', () => {
  it('unchanged files come from the cache; edited and chmodded ones are read again', async () => {
    const dir = gitRepo({ 'a.txt': 'aaaa\n', 'b.txt': 'bbbb\n', 'c.txt': 'cccc\n' });
    // Let the index and the files age past git's one-second timestamp resolution.
    await new Promise((r) => setTimeout(r, 2_100));
    git(dir, 'update-index', '--really-refresh');
    await new Promise((r) => setTimeout(r, 2_100));
    await checkpoint(dir);
    writeFileSync(join(dir, 'a.txt'), 'edited\n');
    chmodSync(join(dir, 'b.txt'), 0o600);
    const before = fingerprint(dir);
    const second = await checkpoint(dir);
    expect(git(dir, 'show', `${second.commit}:a.txt`)).toBe('edited\n');
    expect(git(dir, 'show', `${second.commit}:c.txt`)).toBe('cccc\n');
    writeFileSync(join(dir, 'a.txt'), 'agent\n');
    chmodSync(join(dir, 'b.txt'), 0o644);
    rmSync(join(dir, 'c.txt'));
    const result = await rollback(dir, second);
    expect(result.ok).toBe(true);
    expect(fingerprint(dir)).toEqual(before);
  });
});
