import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import {
  createCheckpoint,
  listCheckpoints,
  prepareProjectRepository,
  readAttemptEnd,
  rollbackToCheckpoint,
  type Checkpoint,
} from '../../../src/checkpoints/git-checkpoints.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { git, gitRepo } from '../../helpers/git-repo.js';
import { fingerprint } from '../../helpers/repo-fingerprint.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * A rollback undoes only its loop's attempt. Against real git, with someone
 * else working at the same time: the user in the main worktree (commit,
 * branch, tag, stash), a sibling loop in another worktree, a commit elsewhere
 * in a monorepo, a background fetch. Their refs are never moved; the
 * attempt's are; every ref left differs from the checkpoint is named with the
 * command that restores it.
 */

const JOURNAL = ['.git', 'ralph', 'rollback-journal.json'];
const DIST = resolve(__dirname, '../../../dist/checkpoints/git-checkpoints.js');

function ws(dir: string): GitWorkspace {
  return new GitWorkspace(dir, createProcessRunner());
}

async function checkpoint(dir: string): Promise<Checkpoint> {
  const made = await createCheckpoint(ws(dir), { loop: 1, now: Date.now() });
  if (!made.ok) throw new Error(made.reason);
  return made.checkpoint;
}

/** The rollback a loop does: with the refs noted when the agent call ended. */
async function rollbackAfterAttempt(dir: string, cp: Checkpoint, between?: () => void) {
  const attemptEnd = await readAttemptEnd(ws(dir));
  between?.();
  const result = await rollbackToCheckpoint(ws(dir), cp, { attemptLabel: 'loop 1', attemptEnd });
  if (!result.ok) throw new Error(result.reason);
  return result;
}

function rev(dir: string, ref: string): string {
  return git(dir, 'rev-parse', '-q', '--verify', ref).trim();
}

function hasRef(dir: string, ref: string): boolean {
  return git(dir, 'for-each-ref', '--format=%(refname)', ref).trim() === ref;
}

function stashCommits(dir: string): string[] {
  try {
    return git(dir, 'log', '-g', '--format=%H', 'refs/stash').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

function commitFile(dir: string, file: string, content: string, message: string): string {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), content);
  git(dir, 'add', file);
  git(dir, 'commit', '-qm', message);
  return rev(dir, 'HEAD');
}

describe('a rollback in a linked worktree, while the user works in the main one', () => {
  it("keeps the user's commit, branch, tag and stash entry, and undoes the attempt's", async () => {
    const main = gitRepo({ 'base.txt': 'base\n' });
    const base = rev(main, 'HEAD');
    const wt = join(tempDir('ralph-wt-'), 'wt');
    git(main, 'worktree', 'add', '-q', '-b', 'wtb', wt);
    writeFileSync(join(main, 'base.txt'), 'older user stash\n');
    git(main, 'stash', 'push', '-q', '-m', 'older user stash');
    const olderStash = rev(main, 'refs/stash');
    const cp = await checkpoint(wt);

    // The attempt, in its worktree: a commit, a tag, a branch, a stash entry, and an edit.
    const attemptCommit = commitFile(wt, 'agent.txt', 'agent\n', 'agent commit');
    git(wt, 'tag', 'agenttag');
    git(wt, 'branch', 'agentbr');
    writeFileSync(join(wt, 'base.txt'), 'agent stash\n');
    git(wt, 'stash', 'push', '-q', '-m', 'agent stash');
    const agentStash = rev(wt, 'refs/stash');
    writeFileSync(join(wt, 'base.txt'), 'agent edit\n');

    // Meanwhile the user, in the main worktree.
    const userCommit = commitFile(main, 'user.txt', 'user\n', 'user commit');
    git(main, 'branch', 'userbr');
    git(main, 'tag', 'usertag');
    writeFileSync(join(main, 'base.txt'), 'user wip\n');
    git(main, 'stash', 'push', '-q', '-m', 'user wip');
    const userStash = rev(main, 'refs/stash');

    const result = await rollbackAfterAttempt(wt, cp);

    // The user's work, untouched.
    expect(rev(main, 'refs/heads/main')).toBe(userCommit);
    expect(rev(main, 'refs/heads/userbr')).toBe(userCommit);
    expect(rev(main, 'refs/tags/usertag')).toBe(userCommit);
    expect(git(main, 'status', '--porcelain')).toBe('');
    expect(stashCommits(main)).toEqual([userStash, olderStash]);
    // The attempt's, undone.
    expect(rev(wt, 'HEAD')).toBe(base);
    expect(rev(wt, 'refs/heads/wtb')).toBe(base);
    expect(hasRef(main, 'refs/tags/agenttag')).toBe(false);
    expect(hasRef(main, 'refs/heads/agentbr')).toBe(false);
    expect(stashCommits(main)).not.toContain(agentStash);
    expect(readFileSync(join(wt, 'base.txt'), 'utf8')).toBe('base\n');
    expect(existsSync(join(wt, 'agent.txt'))).toBe(false);
    // Kept where it can be had back.
    expect(git(main, 'cat-file', '-t', attemptCommit).trim()).toBe('commit');
    // Every ref named: moved ones, and the user's, left with the command that would restore the checkpoint's value.
    expect(result.report.refsMoved.join('\n')).toMatch(/refs\/heads\/wtb[\s\S]*refs\/tags\/agenttag|refs\/tags\/agenttag[\s\S]*refs\/heads\/wtb/);
    const left = result.report.refsLeft.join('\n');
    expect(left).toContain(`refs/heads/main left at ${userCommit.slice(0, 12)} (checked out in another worktree)`);
    expect(left).toContain(`git update-ref refs/heads/main ${base}`);
    expect(left).toContain('refs/heads/userbr');
    expect(left).toContain('refs/tags/usertag');
  });

  it("a sibling loop's branch, committed and its worktree removed during the attempt, is never moved back", async () => {
    const main = gitRepo({ 'base.txt': 'base\n' });
    const base = rev(main, 'HEAD');
    const root = tempDir('ralph-queue-');
    const t1 = join(root, 't1');
    const t2 = join(root, 't2');
    git(main, 'worktree', 'add', '-q', '-b', 'ralph/t1', t1);
    git(main, 'worktree', 'add', '-q', '-b', 'ralph/t2', t2);
    const cp = await checkpoint(t1);
    const t2Commit = commitFile(t2, 't2.txt', 't2 work\n', 'ralph(t2): done');
    git(main, 'worktree', 'remove', t2);
    commitFile(t1, 't1.txt', 't1 work\n', 'ralph(t1): failing attempt');
    const result = await rollbackAfterAttempt(t1, cp);
    expect(rev(main, 'refs/heads/ralph/t2')).toBe(t2Commit);
    expect(rev(main, 'refs/heads/ralph/t1')).toBe(base);
    expect(result.report.refsLeft.join('\n')).toContain('refs/heads/ralph/t2');
  });
});

describe('a rollback in a monorepo project', () => {
  it('never moves the branch back over a commit made elsewhere in the repository during the iteration', async () => {
    const root = gitRepo({ 'packages/app/a.txt': 'app\n', 'packages/other/o.txt': 'other\n' });
    const app = join(root, 'packages', 'app');
    const cp = await checkpoint(app);
    writeFileSync(join(app, 'a.txt'), 'agent edit\n');
    writeFileSync(join(app, 'new.txt'), 'agent file\n');
    const userCommit = commitFile(root, 'packages/other/o.txt', 'user\n', 'user commit in another package');
    const result = await rollbackAfterAttempt(app, cp);
    expect(rev(root, 'refs/heads/main')).toBe(userCommit);
    expect(readFileSync(join(app, 'a.txt'), 'utf8')).toBe('app\n');
    expect(existsSync(join(app, 'new.txt'))).toBe(false);
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(result.report.refsMoved).toEqual([]);
  });

  it("leaves the branch, and says so, when it holds both the attempt's commit and someone else's", async () => {
    const root = gitRepo({ 'packages/app/a.txt': 'app\n', 'packages/other/o.txt': 'other\n' });
    const app = join(root, 'packages', 'app');
    const base = rev(root, 'HEAD');
    const cp = await checkpoint(app);
    commitFile(root, 'packages/app/a.txt', 'agent\n', 'agent commit');
    const userCommit = commitFile(root, 'packages/other/o.txt', 'user\n', 'user commit in another package');
    const result = await rollbackAfterAttempt(app, cp);
    expect(rev(root, 'refs/heads/main')).toBe(userCommit);
    expect(readFileSync(join(app, 'a.txt'), 'utf8')).toBe('app\n');
    expect(result.report.refsLeft.join('\n')).toContain(`refs/heads/main left at ${userCommit.slice(0, 12)} (it holds commits outside the project folder`);
    expect(result.report.refsLeft.join('\n')).toContain(`git update-ref refs/heads/main ${base}`);
  });
});

describe('a rollback and a fetch during the iteration', () => {
  it('never moves a remote-tracking ref back', async () => {
    const remote = tempDir('ralph-remote-');
    git(remote, 'init', '-q', '--bare', '-b', 'main');
    const project = gitRepo({ 'a.txt': 'a\n' });
    git(project, 'remote', 'add', 'origin', remote);
    git(project, 'push', '-q', 'origin', 'main');
    git(project, 'fetch', '-q', 'origin');
    const other = tempDir('ralph-other-');
    git(other, 'clone', '-q', remote, '.');
    git(other, 'config', 'user.name', 'Other');
    git(other, 'config', 'user.email', 'other@example.invalid');
    const cp = await checkpoint(project);
    const pushed = commitFile(other, 'b.txt', 'b\n', 'pushed by a colleague');
    git(other, 'push', '-q', 'origin', 'main');
    writeFileSync(join(project, 'a.txt'), 'agent\n');
    git(project, 'fetch', '-q', 'origin');
    const result = await rollbackAfterAttempt(project, cp);
    expect(rev(project, 'refs/remotes/origin/main')).toBe(pushed);
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('a\n');
    expect(result.report.refsLeft.join('\n')).toContain('refs/remotes/origin/main left at');
  });
});

describe('a ref changed after the attempt ended', () => {
  it('is left as it is, even when the attempt had changed it too', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    git(dir, 'tag', 'v1');
    const cp = await checkpoint(dir);
    const agent = commitFile(dir, 'a.txt', 'agent\n', 'agent');
    git(dir, 'tag', '-f', 'v1', agent);
    git(dir, 'branch', 'feature');
    let elsewhere = '';
    const result = await rollbackAfterAttempt(dir, cp, () => {
      // The verify command (or anyone) moves the tag after the agent call ended.
      elsewhere = git(dir, 'commit-tree', 'HEAD^{tree}', '-p', 'HEAD', '-m', 'made elsewhere').trim();
      git(dir, 'tag', '-f', 'v1', elsewhere);
      git(dir, 'tag', 'later');
    });
    expect(rev(dir, 'refs/tags/v1')).toBe(elsewhere);
    expect(hasRef(dir, 'refs/tags/later')).toBe(true);
    expect(hasRef(dir, 'refs/heads/feature')).toBe(false);
    expect(result.report.refsLeft.join('\n')).toContain('refs/tags/later left at');
  });
});

describe('a rollback into a directory the agent made inaccessible', () => {
  it('gives the owner access back and restores what is inside', async () => {
    const dir = gitRepo({ 'src/x.ts': 'x\n', 'a.txt': 'a\n' });
    const cp = await checkpoint(dir);
    writeFileSync(join(dir, 'src', 'x.ts'), 'agent\n');
    chmodSync(join(dir, 'src'), 0o000);
    const result = await rollbackToCheckpoint(ws(dir), cp, { attemptLabel: 'loop 1' });
    expect(result.ok, result.ok ? '' : result.reason).toBe(true);
    expect(statSync(join(dir, 'src')).mode & 0o700).toBe(0o700);
    expect(readFileSync(join(dir, 'src', 'x.ts'), 'utf8')).toBe('x\n');
    if (result.ok) expect(result.report.notes.join('\n')).toContain('src had lost access to it');
  });
});

describe('things in the way of a restored file', () => {
  it('are moved out of the project into the git dir, never left as stray entries next to the files', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n', '.gitignore': '*.log\n' });
    const nested = join(dir, 'vendor', 'tool');
    mkdirSync(nested, { recursive: true });
    gitRepo({ 'n.txt': 'nested\n' }, nested);
    const cp = await checkpoint(dir);
    // The agent turns a.txt into a directory holding an ignored file, and commits in a nested repository (an honest "incomplete").
    rmSync(join(dir, 'a.txt'));
    mkdirSync(join(dir, 'a.txt'));
    writeFileSync(join(dir, 'a.txt', 'build.log'), 'ignored output\n');
    writeFileSync(join(nested, 'n.txt'), 'agent\n');
    git(nested, 'commit', '-qam', 'agent in the nested repo');
    const result = await rollbackToCheckpoint(ws(dir), cp, { attemptLabel: 'loop 1' });
    expect(result.ok).toBe(false);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(readdirSync(dir).filter((name) => name.includes('ralph-displaced'))).toEqual([]);
    const aside = join(dir, '.git', 'ralph', 'displaced');
    const [moved = ''] = readdirSync(aside);
    expect(readFileSync(join(aside, moved, 'a.txt', 'build.log'), 'utf8')).toBe('ignored output\n');
  });
});

describe('a nested repository', () => {
  it('with uncommitted changes is named after a rollback', async () => {
    const dir = gitRepo({ 'a.txt': '1\n' });
    const nested = join(dir, 'vendor', 'tool');
    mkdirSync(nested, { recursive: true });
    gitRepo({ 'n.txt': 'nested\n' }, nested);
    const cp = await checkpoint(dir);
    writeFileSync(join(nested, 'n.txt'), 'agent\n');
    writeFileSync(join(dir, 'a.txt'), 'agent\n');
    const result = await rollbackToCheckpoint(ws(dir), cp, { attemptLabel: 'loop 1' });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.report.notes.join('\n')).toContain('nested repository vendor/tool has uncommitted changes');
  });
});

describe('an interrupted rollback and later work', () => {
  async function killMidRollback(dir: string, cp: Checkpoint, step = 'written'): Promise<boolean> {
    const script = `
      const { rollbackToCheckpoint } = await import(${JSON.stringify(DIST)});
      const { GitWorkspace } = await import(${JSON.stringify(DIST.replace('checkpoints/git-checkpoints.js', 'infra/git-workspace.js'))});
      const cp = JSON.parse(process.argv[1]);
      await rollbackToCheckpoint(new GitWorkspace(process.cwd(), null), cp, {
        attemptLabel: 'killed',
        onStep: (s) => { if (s === ${JSON.stringify(step)}) { process.stdout.write('stop'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000); } },
      });
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(cp)], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
    const exited = new Promise<void>((r) => child.on('exit', () => r()));
    await new Promise<void>((r) => {
      child.stdout.on('data', () => r());
      child.on('exit', () => r());
    });
    child.kill('SIGKILL');
    await exited;
    return existsSync(join(dir, ...JOURNAL));
  }

  function manyFiles(): Record<string, string> {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i += 1) files[`src/f${i}.txt`] = `original ${i}\n`;
    return files;
  }

  it('the next start saves the later work first and undoes none of it; a listing changes nothing', async () => {
    const dir = gitRepo(manyFiles());
    const cp = await checkpoint(dir);
    for (let i = 0; i < 40; i += 1) writeFileSync(join(dir, `src/f${i}.txt`), `agent ${i}\n`);
    git(dir, 'commit', '-qam', 'agent commit');
    expect(await killMidRollback(dir, cp)).toBe(true);

    // The user comes back: edits a tracked file, adds one, commits, and leaves an edit uncommitted.
    writeFileSync(join(dir, 'src/f1.txt'), 'user edit\n');
    writeFileSync(join(dir, 'user.txt'), 'user file\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'user commit after the interruption');
    const userCommit = rev(dir, 'HEAD');
    writeFileSync(join(dir, 'src/f2.txt'), 'user uncommitted edit\n');
    const present = fingerprint(dir, (rel) => rel === '.git');

    // A listing only says what is pending.
    const said: string[] = [];
    const listing = await listCheckpoints(ws(dir), { warn: (m) => said.push(m) });
    expect(listing.ok).toBe(true);
    expect(said.join('\n')).toContain('the next start of ralph finishes it');
    expect(fingerprint(dir, (rel) => rel === '.git')).toEqual(present);
    expect(existsSync(join(dir, ...JOURNAL))).toBe(true);

    // The next start: nothing of the later work is undone, and the state found is saved.
    const messages: string[] = [];
    await prepareProjectRepository(dir, (m) => messages.push(m));
    const message = messages.join('\n');
    expect(message).toContain('the project changed after that');
    expect(message).toContain(`ralph --restore ${cp.id}`);
    expect(existsSync(join(dir, ...JOURNAL))).toBe(false);
    expect(fingerprint(dir, (rel) => rel === '.git')).toEqual(present);
    expect(rev(dir, 'refs/heads/main')).toBe(userCommit);
    expect(readFileSync(join(dir, 'src/f2.txt'), 'utf8')).toBe('user uncommitted edit\n');
    const saved = /saved at (refs\/ralph\/attempts\/\S+)/.exec(message)?.[1] ?? '';
    expect(git(dir, 'show', `${saved}:src/f2.txt`)).toBe('user uncommitted edit\n');
  }, 60_000);

  for (const step of ['journal', 'deleted', 'written', 'index', 'refs']) {
    it(`killed after step "${step}", then the user commits and edits: the next start loses none of it`, async () => {
      const dir = gitRepo(manyFiles());
      const cp = await checkpoint(dir);
      for (let i = 0; i < 40; i += 1) writeFileSync(join(dir, `src/f${i}.txt`), `agent ${i}\n`);
      writeFileSync(join(dir, 'agent-new.txt'), 'agent\n');
      git(dir, 'add', '-A');
      git(dir, 'commit', '-qm', 'agent commit');
      expect(await killMidRollback(dir, cp, step)).toBe(true);
      writeFileSync(join(dir, 'user.txt'), 'user file\n');
      git(dir, 'add', 'user.txt');
      git(dir, 'commit', '-qm', 'user commit after the interruption');
      const userCommit = rev(dir, 'HEAD');
      writeFileSync(join(dir, 'src/f3.txt'), 'user uncommitted edit\n');
      const present = fingerprint(dir, (rel) => rel === '.git');
      await prepareProjectRepository(dir, () => undefined);
      expect(fingerprint(dir, (rel) => rel === '.git')).toEqual(present);
      expect(git(dir, 'merge-base', '--is-ancestor', userCommit, 'main')).toBe('');
    }, 60_000);
  }
});
