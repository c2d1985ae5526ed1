// ralph queue run --pr --follow-checks through the built CLI: the branch is pushed to a local bare
// repository, and a fake GitHub API answers each pushed commit's checks from that commit's files,
// like a CI would; review comments come from the fake's reviewer.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeGithub, type FakeCheckRun } from '../../helpers/fake-github.js';
import { PLANTED_SECRETS } from '../../helpers/planted-secrets.js';
import { filesOnBranch, githubEnv, mockFlags, projectWithRemote, queueCli, queueItems, writeItemScript } from './queue-run-helpers.js';

const TOKEN = PLANTED_SECRETS['GITHUB_TOKEN'] as string;
const FOLLOW = ['--pr', '--follow-checks', '--checks-interval', '0.05', '--repo', 'octo/app'];

/** Whether the commit on the remote holds the file: what the fake CI's test checks. */
function hasFile(remote: string, sha: string, file: string): boolean {
  try {
    execFileSync('git', ['cat-file', '-e', `${sha}:${file}`], { cwd: remote, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A CI whose `test` check runs for one look, then passes when fix.txt is in the commit. */
function testCheck(remote: string, sha: string, look: number): FakeCheckRun {
  if (look === 1) return { name: 'test', status: 'in_progress' };
  if (hasFile(remote, sha, 'fix.txt')) return { name: 'test', conclusion: 'success', output: { title: '12 tests passed' } };
  return {
    name: 'test',
    conclusion: 'failure',
    output: { title: '1 test failed', summary: 'fix.txt is missing', text: `${'noise\n'.repeat(2000)}AssertionError: expected fix.txt to exist` },
    annotations: [{ path: 'alpha.txt', start_line: 1, annotation_level: 'failure', message: 'fix.txt is missing' }],
  };
}

describe('ralph queue run --pr --follow-checks', () => {
  it('a check that fails on the first push is fixed in round 2, pushed to the same pull request, and the item completes', async () => {
    let remote = '';
    const gh = await startFakeGithub({
      token: TOKEN,
      repo: 'octo/app',
      issues: [],
      ci: (sha, look) => ({ checkRuns: [testCheck(remote, sha, look)], statuses: [{ context: 'lint', state: 'success' }] }),
    });
    const setup = projectWithRemote();
    remote = setup.remote;
    const env = githubEnv(gh.url, TOKEN);
    const added = await queueCli(['add', '>>alpha :: verify:"test -f alpha.txt"'], setup.project, env);
    expect(added.exitCode, String(added.stderr)).toBe(0);
    // Round 2's answer is picked only by a prompt that carries the failed check's output and annotation.
    const script = writeItemScript([
      { trigger: 'Follow-up round 2 of 4[\\s\\S]*expected fix.txt to exist[\\s\\S]*alpha.txt:1 failure', files: { 'fix.txt': 'fixed\n' } },
      { trigger: 'alpha', files: { 'alpha.txt': 'a\n' } },
    ]);
    const run = await queueCli(['run', ...FOLLOW, ...mockFlags(script)], setup.project, env);
    const stderr = String(run.stderr);
    expect(run.exitCode, stderr).toBe(0);

    expect(gh.pulls).toHaveLength(1);
    expect(filesOnBranch(remote, 'ralph/t1')).toEqual(['.gitignore', 'README.md', 'alpha.txt', 'fix.txt']);
    const [item] = queueItems(setup.project);
    expect(item).toMatchObject({ state: 'completed', result: { iterations: 2 } });
    const follow = (item as unknown as { follow: Record<string, unknown> }).follow;
    expect(follow).toMatchObject({
      round: 2,
      max_rounds: 4,
      state: 'passed',
      checks: [
        { name: 'test', state: 'success' },
        { name: 'lint', state: 'success' },
      ],
    });
    expect(stderr).toMatch(/t1: round 1: test failed on [0-9a-f]{12}; running the loop again \(round 2\)/);
    expect(stderr).toMatch(/t1: round 2: every check passed on [0-9a-f]{12}/);
    expect(String(run.stdout)).toMatch(/followed t1: round 2\/4, checks passed on [0-9a-f]{12}: test success, lint success/);
    const list = await queueCli(['list'], setup.project, env);
    expect(String(list.stdout)).toContain('round 2/4, checks passed');
    for (const text of [stderr, String(run.stdout), readFileSync(join(setup.project, '.ralph', 'queue.json'), 'utf8')]) expect(text).not.toContain(TOKEN);
  });

  it('a check that never passes fails the item after --follow-max rounds, naming the check, and a deleted test is reported', async () => {
    const gh = await startFakeGithub({
      token: TOKEN,
      repo: 'octo/app',
      issues: [],
      ci: () => ({ checkRuns: [{ name: 'test', conclusion: 'failure', output: { title: 'still red' } }] }),
    });
    const { project, remote } = projectWithRemote({ 'tests/alpha.test.js': "it('works', () => {});\n" });
    const env = githubEnv(gh.url, TOKEN);
    const added = await queueCli(['add', '>>alpha :: verify:"test -f alpha.txt"'], project, env);
    expect(added.exitCode, String(added.stderr)).toBe(0);
    const script = writeItemScript([
      { trigger: 'Follow-up round 2', files: { 'tests/alpha.test.js': null } },
      { trigger: 'Follow-up round 3', files: { 'attempt.txt': 'again\n' } },
      { trigger: 'alpha', files: { 'alpha.txt': 'a\n' } },
    ]);
    const run = await queueCli(['run', ...FOLLOW, '--follow-max', '2', ...mockFlags(script)], project, env);
    const stderr = String(run.stderr);
    expect(run.exitCode, stderr).toBe(1);
    const [item] = queueItems(project);
    expect(item).toMatchObject({
      state: 'failed',
      result: { error: 'test still failing after 3 rounds (--follow-max 2)', test_tampering: ['round 2: deleted the test file tests/alpha.test.js'] },
    });
    expect(stderr).toContain('t1: round 2 deleted the test file tests/alpha.test.js');
    expect(filesOnBranch(remote, 'ralph/t1')).toContain('attempt.txt');
    expect(gh.pulls).toHaveLength(1);
  });

  it('--follow-reviews acts on a review comment that arrives after the push and replies to it with the commit', async () => {
    let commented = false;
    const gh = await startFakeGithub({
      token: TOKEN,
      repo: 'octo/app',
      issues: [],
      ci: () => {
        const pull = gh.pulls[0];
        if (!commented && pull) {
          commented = true;
          gh.addReviewComment(pull.number, 'Please say hello in alpha.txt', { path: 'alpha.txt', line: 1 });
        }
        return { checkRuns: [{ name: 'test', conclusion: 'success' }] };
      },
    });
    const { project, remote } = projectWithRemote();
    const env = githubEnv(gh.url, TOKEN);
    const added = await queueCli(['add', '>>alpha :: verify:"test -f alpha.txt"'], project, env);
    expect(added.exitCode, String(added.stderr)).toBe(0);
    const script = writeItemScript([
      { trigger: 'Comment by @reviewer on alpha.txt:1:\\s+Please say hello', files: { 'alpha.txt': 'hello\n' } },
      { trigger: 'alpha', files: { 'alpha.txt': 'a\n' } },
    ]);
    const run = await queueCli(['run', ...FOLLOW, '--follow-reviews', ...mockFlags(script)], project, env);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const head = execFileSync('git', ['rev-parse', 'ralph/t1'], { cwd: remote, encoding: 'utf8' }).trim();
    expect(execFileSync('git', ['show', 'ralph/t1:alpha.txt'], { cwd: remote, encoding: 'utf8' })).toBe('hello\n');
    const [comment, reply, ...rest] = gh.reviewComments;
    expect(rest).toEqual([]);
    expect(reply).toMatchObject({ in_reply_to_id: comment?.id, body: `Ralph pushed ${head} for this comment.` });
    expect(queueItems(project)[0]).toMatchObject({ state: 'completed' });
  });
});
