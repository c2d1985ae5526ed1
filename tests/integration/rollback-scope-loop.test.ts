// The loop's rollback after a failed verify, through the built CLI and an agent that really runs git.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../helpers/git-repo.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph, readJson, readJsonLines, resultJson, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const working = `Working.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`;

function rev(dir: string, ref: string): string {
  return git(dir, 'rev-parse', '-q', '--verify', ref).trim();
}

function restoredEvents(dir: string): Array<Record<string, unknown>> {
  return readJsonLines(join(dir, '.ralph', 'logs', 'session.jsonl'))
    .filter((e) => e['event'] === 'checkpoint.restored')
    .map((e) => e['data'] as Record<string, unknown>);
}

describe('a loop in a linked worktree rolls back while the user works in the main worktree', () => {
  it("keeps the user's commit, branch, tag and stash; undoes the attempt's; names every ref in the log", async () => {
    const main = ralphProject({ files: { 'base.txt': 'base\n' } });
    const wt = join(tempDir('ralph-loop-wt-'), 'wt');
    git(main, 'worktree', 'add', '-q', '-b', 'feature', wt);
    const base = rev(main, 'HEAD');
    // During the agent call: the agent commits and tags in its worktree; the user commits, branches, tags and stashes in theirs.
    const agent = [
      'echo agent > agent.txt && git add agent.txt && git commit -qm "agent commit" && git tag agenttag',
      `cd '${main}' && echo user > user.txt && git add user.txt && git commit -qm "user commit" && git branch userbr && git tag usertag`,
      `echo wip > base.txt && git stash push -q -m "user wip"`,
    ].join(' && ');
    const fake = fakeClaude([], { default: { stdout: resultJson(working), shell: agent } });
    const r = await ralph(['--pause', '0', '--verify', 'exit 1', '--rollback-on-fail', '--max-loops', '1'], wt, fake.env);
    expect(fake.calls()).toHaveLength(1);
    const userCommit = rev(main, 'refs/heads/main');
    expect(git(main, 'log', '-1', '--format=%s', 'main').trim()).toBe('user commit');
    expect(rev(main, 'refs/heads/userbr')).toBe(userCommit);
    expect(rev(main, 'refs/tags/usertag')).toBe(userCommit);
    expect(git(main, 'stash', 'list', '--format=%s').trim()).toBe('On main: user wip');
    expect(git(main, 'status', '--porcelain', '--untracked-files=no')).toBe('');
    // The attempt's commit and tag are gone from the refs; its worktree is as before.
    expect(rev(wt, 'HEAD')).toBe(base);
    expect(git(main, 'tag', '--list', 'agenttag').trim()).toBe('');
    expect(existsSync(join(wt, 'agent.txt'))).toBe(false);
    const stderr = String(r.stderr);
    expect(stderr).toContain('Ref moved back: refs/heads/feature');
    expect(stderr).toContain('Ref left as it is: refs/heads/main');
    const [restored] = restoredEvents(wt);
    expect(restored?.['refs_left']).toEqual(expect.arrayContaining([expect.stringContaining('refs/tags/usertag')]));
    expect(restored?.['refs_moved']).toEqual(expect.arrayContaining([expect.stringContaining('refs/tags/agenttag')]));
  }, 60_000);
});

describe('a rollback that cannot finish', () => {
  it('stops the loop with rollback_failed (exit 1), the cause and what to do, instead of running on a half-restored tree', async () => {
    const dir = ralphProject({ files: { 'app.txt': 'good\n' } });
    // The agent commits and leaves a stale lock on its branch (a git process it killed): the branch cannot be moved back.
    const agent = 'echo broken > app.txt && git commit -qam "agent" && : > .git/refs/heads/main.lock';
    const fake = fakeClaude([], { default: { stdout: resultJson(working), shell: agent } });
    const r = await ralph(['--pause', '0', '--verify', 'exit 1', '--rollback-on-fail', '--max-loops', '3'], dir, fake.env);
    expect(r.exitCode).toBe(1);
    expect(fake.calls()).toHaveLength(1);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'rollback_failed' });
    const stderr = String(r.stderr);
    expect(stderr).toContain('main.lock');
    expect(stderr).toContain('then start ralph again');
  }, 60_000);
});

describe('git state files Ralph keeps', () => {
  it('a damaged rollback journal is named by a listing, which changes nothing and says what happens next', async () => {
    const dir = ralphProject({ files: { 'app.txt': 'good\n' } });
    const journal = join(dir, '.git', 'ralph', 'rollback-journal.json');
    mkdirSync(join(dir, '.git', 'ralph'), { recursive: true });
    writeFileSync(journal, '{ not json');
    const r = await ralph(['--checkpoints'], dir, fakeClaude([]).env);
    expect(String(r.stderr)).toContain(journal);
    expect(String(r.stderr)).toContain('the next start of ralph sets it aside');
    expect(String(r.stderr)).not.toContain('Unexpected error');
    expect(readFileSync(journal, 'utf8')).toBe('{ not json');
  });

  it('a file where Ralph keeps its folder in the git dir is named with what to do, for the loop and for the listing', async () => {
    const dir = ralphProject({ files: { 'app.txt': 'good\n' } });
    const stateDir = join(dir, '.git', 'ralph');
    writeFileSync(stateDir, 'not a folder\n');
    const fake = fakeClaude([], { default: { stdout: resultJson(working) } });
    const run = await ralph(['--pause', '0', '--verify', 'exit 0', '--max-loops', '1'], dir, fake.env);
    const listing = await ralph(['--checkpoints'], dir, fake.env);
    for (const r of [run, listing]) {
      expect(r.exitCode).toBe(1);
      expect(String(r.stderr)).toContain(stateDir);
      expect(String(r.stderr)).toMatch(/not a (folder|directory)/);
      expect(String(r.stderr)).toMatch(/Remove or fix that path|Move it out of the way/);
      expect(String(r.stderr)).not.toContain('Unexpected error');
    }
    expect(fake.calls()).toHaveLength(0);
    expect(readFileSync(stateDir, 'utf8')).toBe('not a folder\n');
  });
});
