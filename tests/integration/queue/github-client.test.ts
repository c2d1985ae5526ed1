import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { createGithubClient } from '../../../src/features/queue/github/github-client.js';
import type { GithubTarget } from '../../../src/features/queue/github/github-target.js';
import { resolveGithubToken } from '../../../src/features/queue/github/github-token.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { redactText } from '../../../src/state/redaction.js';
import { startFakeGithub, type FakeIssue } from '../../helpers/fake-github.js';
import { PLANTED_SECRETS } from '../../helpers/planted-secrets.js';
import { tempDir } from '../../helpers/temp-dir.js';

const TOKEN = PLANTED_SECRETS['GITHUB_TOKEN'] as string;
const REPO = 'octo/app';

const ISSUES: FakeIssue[] = [
  { number: 1, title: 'one', body: 'first', labels: ['ralph'] },
  { number: 2, title: 'a pull request', labels: ['ralph'], pullRequest: true },
  { number: 3, title: 'three', labels: ['ralph', 'P1'], milestone: { number: 7, title: 'v2' }, assignee: 'ann' },
  { number: 4, title: 'not ours', labels: ['bug'] },
  { number: 5, title: 'five', labels: ['ralph'], milestone: { number: 7, title: 'v2' } },
  { number: 6, title: 'closed', labels: ['ralph'], state: 'closed' },
  { number: 8, title: 'eight', labels: ['ralph'] },
];

function target(url: string): GithubTarget {
  return { repo: { host: 'github.com', owner: 'octo', name: 'app' }, slug: REPO, apiUrl: url };
}

describe('the GitHub client against a fake REST API', () => {
  it("lists a label's open issues page by page, without pull requests", async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: REPO, issues: ISSUES, pageSize: 2 });
    const issues = await createGithubClient(target(gh.url), TOKEN).listIssues({ labels: ['ralph'] });
    expect(issues.map((i) => i.number)).toEqual([1, 3, 5, 8]);
    expect(issues[1]).toEqual({ number: 3, title: 'three', body: '', labels: ['ralph', 'P1'], state: 'open', url: 'https://github.com/octo/app/issues/3' });
    const pages = gh.requests.filter((r) => r.path === '/repos/octo/app/issues');
    expect(pages.map((r) => r.query['page'] ?? '1')).toEqual(['1', '2', '3']);
    expect(pages[0]?.query).toMatchObject({ state: 'open', labels: 'ralph', per_page: '100' });
    expect(gh.requests.every((r) => r.authorization === `token ${TOKEN}`)).toBe(true);
  });

  it('finds a milestone by its title and filters by assignee', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: REPO, issues: ISSUES });
    const client = createGithubClient(target(gh.url), TOKEN);
    expect((await client.listIssues({ labels: ['ralph'], milestone: 'v2' })).map((i) => i.number)).toEqual([3, 5]);
    expect((await client.listIssues({ assignee: 'ann' })).map((i) => i.number)).toEqual([3]);
    expect(gh.requests.map((r) => `${r.method} ${r.path} ${r.query['milestone'] ?? ''}`.trim())).toEqual([
      'GET /repos/octo/app/milestones',
      'GET /repos/octo/app/issues 7',
      'GET /repos/octo/app/issues',
    ]);
    await expect(client.listIssues({ milestone: 'v9' })).rejects.toThrow(/has no milestone "v9"/);
  });

  it('reads an issue, comments, labels, opens a pull request that closes it, and closes it', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: REPO, issues: ISSUES });
    const client = createGithubClient(target(gh.url), TOKEN);
    expect(await client.getIssue(1)).toMatchObject({ number: 1, title: 'one', body: 'first' });
    expect(await client.commentOnIssue(1, 'Ralph started on this.')).toEqual({ url: 'https://github.com/octo/app/issues/1#issuecomment-1' });
    await client.addLabels(1, ['in-progress']);
    expect(await client.createPullRequest({ head: 'ralph/gh-1', base: 'main', title: 'one', body: 'Work of Ralph.', closes: 1 })).toEqual({
      number: 101,
      url: 'https://github.com/octo/app/pull/101',
    });
    await client.closeIssue(1);
    expect(gh.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /repos/octo/app/issues/1',
      'POST /repos/octo/app/issues/1/comments',
      'POST /repos/octo/app/issues/1/labels',
      'POST /repos/octo/app/pulls',
      'PATCH /repos/octo/app/issues/1',
    ]);
    expect(gh.comments).toEqual([{ issue: 1, body: 'Ralph started on this.' }]);
    expect(gh.issues.get(1)?.labels).toEqual(['ralph', 'in-progress']);
    expect(gh.pulls[0]).toEqual({ number: 101, head: 'ralph/gh-1', base: 'main', title: 'one', body: 'Work of Ralph.\n\nCloses #1\n' });
    expect(gh.requests[4]?.body).toMatchObject({ state: 'closed' });
    expect(gh.issues.get(1)?.state).toBe('closed');
  });

  it('refuses a pull request given as an issue, and a missing issue', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: REPO, issues: ISSUES });
    const client = createGithubClient(target(gh.url), TOKEN);
    await expect(client.getIssue(2)).rejects.toThrow(/#2 in octo\/app is a pull request/);
    await expect(client.getIssue(99)).rejects.toThrow(/GitHub answered 404 while trying to read issue #99 in octo\/app/);
  });

  it('a wrong token is a clear error that never shows the token', async () => {
    const gh = await startFakeGithub({ token: 'the-right-token-000000', repo: REPO, issues: ISSUES });
    const error = await createGithubClient(target(gh.url), TOKEN)
      .getIssue(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RalphError);
    const { message, hint, exitCode } = error as RalphError;
    expect(message).toMatch(/GitHub refused the token while trying to read issue #1 \(401: Bad credentials/);
    expect(hint).toMatch(/GITHUB_TOKEN/);
    expect(exitCode).toBe(1);
    expect(JSON.stringify({ message, hint, stack: (error as Error).stack })).not.toContain(TOKEN);
  });

  it('an API nobody serves is a clear error naming the address', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: REPO, issues: [] });
    await gh.close();
    await expect(createGithubClient(target(gh.url), TOKEN).getIssue(1)).rejects.toThrow(
      new RegExp(`Could not reach the GitHub API at ${gh.url} to read issue #1`),
    );
  });
});

describe("GitHub's own failures", () => {
  const noWait = { retryDelaysMs: [0, 0, 0] };

  it('a server error on a read is tried again, and the read succeeds', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: REPO, issues: ISSUES });
    gh.failNext({ status: 500, message: 'Server Error' }, { status: 502, message: 'Bad Gateway' });
    expect(await createGithubClient(target(gh.url), TOKEN, noWait).getIssue(1)).toMatchObject({ number: 1 });
    expect(gh.requests.map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill('GET /repos/octo/app/issues/1'));
  });

  it('a server error that lasts says what GitHub answered, not that it could not be reached', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: REPO, issues: ISSUES });
    gh.failNext(...Array(4).fill({ status: 500, message: 'Server Error' }));
    const error = (await createGithubClient(target(gh.url), TOKEN, noWait)
      .getIssue(1)
      .catch((e: unknown) => e)) as RalphError;
    expect(error.message).toMatch(/^GitHub answered 500, an error on GitHub's side, while trying to read issue #1 in octo\/app \(4 tries\): Server Error/);
    expect(error.message).not.toContain('Could not reach');
    expect(error.hint).toContain('githubstatus.com');
    expect(gh.requests).toHaveLength(4);
  });

  it('a 500 on a pull request is not sent twice (it may have been made); a 503 is', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: REPO, issues: ISSUES });
    const client = createGithubClient(target(gh.url), TOKEN, noWait);
    gh.failNext({ status: 500 });
    await expect(client.createPullRequest({ head: 'ralph/t1', base: 'main', title: 't', body: 'b' })).rejects.toThrow(/GitHub answered 500/);
    expect(gh.requests.filter((r) => r.path.endsWith('/pulls'))).toHaveLength(1);
    gh.failNext({ status: 503 });
    expect(await client.createPullRequest({ head: 'ralph/t1', base: 'main', title: 't', body: 'b' })).toMatchObject({ number: 101 });
    expect(gh.pulls).toHaveLength(1);
  });

  it('a spent rate limit says when it resets', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: REPO, issues: ISSUES });
    const reset = Math.floor(Date.now() / 1000) + 14 * 60;
    gh.failNext({ status: 403, message: 'API rate limit exceeded', headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) } });
    const error = (await createGithubClient(target(gh.url), TOKEN, noWait)
      .listIssues({ labels: ['ralph'] })
      .catch((e: unknown) => e)) as RalphError;
    const at = new Date(reset * 1000).toISOString().slice(11, 19);
    expect(error.message).toMatch(new RegExp(`rate limit for this token is used up .*; it resets at ${at} UTC \\(in 1[45] min\\)`));
    expect(gh.requests).toHaveLength(1);
  });

  it('a secondary rate limit says how long to wait', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: REPO, issues: ISSUES });
    gh.failNext({ status: 429, message: 'You have exceeded a secondary rate limit', headers: { 'retry-after': '60' } });
    await expect(createGithubClient(target(gh.url), TOKEN, noWait).getIssue(1)).rejects.toThrow(
      /secondary rate limit\) while trying to read issue #1; it may be tried again in 60 s/,
    );
  });
});

describe('the token', () => {
  const runner = createProcessRunner();

  it('comes from GITHUB_TOKEN, then GH_TOKEN', async () => {
    expect(await resolveGithubToken({ GITHUB_TOKEN: 'a-token-1', GH_TOKEN: 'b-token-2' }, runner, '/')).toEqual({ value: 'a-token-1', source: 'GITHUB_TOKEN' });
    expect(await resolveGithubToken({ GITHUB_TOKEN: ' ', GH_TOKEN: 'b-token-2' }, runner, '/')).toEqual({ value: 'b-token-2', source: 'GH_TOKEN' });
  });

  it('then from `gh auth token`, and that token is redacted from then on', async () => {
    const bin = tempDir('fake-gh-');
    const token = 'gho_FROMghCLI000000000000000000000042';
    writeFileSync(join(bin, 'gh'), `#!/bin/sh\n[ "$1 $2" = "auth token" ] && echo ${token} && exit 0\nexit 1\n`);
    chmodSync(join(bin, 'gh'), 0o755);
    expect(await resolveGithubToken({ PATH: bin }, runner, bin)).toEqual({ value: token, source: 'gh auth token' });
    expect(redactText(`token ${token} leaked`)).not.toContain(token);
  });

  it('missing everywhere is a clear error saying how to get one', async () => {
    const empty = tempDir('no-gh-');
    const error = (await resolveGithubToken({ PATH: empty }, runner, empty).catch((e: unknown) => e)) as RalphError;
    expect(error.message).toBe('No GitHub token: GITHUB_TOKEN and GH_TOKEN are not set and the GitHub CLI (gh) is not installed.');
    expect(error.hint).toMatch(/github\.com\/settings\/tokens.*gh auth login/);
    const bin = tempDir('gh-logged-out-');
    writeFileSync(join(bin, 'gh'), '#!/bin/sh\necho "not logged in" >&2\nexit 1\n');
    chmodSync(join(bin, 'gh'), 0o755);
    await expect(resolveGithubToken({ PATH: bin }, runner, bin)).rejects.toThrow(/gh is not logged in/);
  });
});
