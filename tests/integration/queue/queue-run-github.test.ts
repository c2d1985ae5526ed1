// ralph queue run --pr through the built CLI: branches pushed to a local bare repository (the
// remote), pull requests, comments and closing against a fake GitHub API on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeGithub, type FakeIssue } from '../../helpers/fake-github.js';
import { git } from '../../helpers/git-repo.js';
import { PLANTED_SECRETS } from '../../helpers/planted-secrets.js';
import { createGithubClient, type GithubClient } from '../../../src/features/queue/github/github-client.js';
import { openPullRequest } from '../../../src/features/queue/item-pull-request.js';
import { createQueueGit } from '../../../src/features/queue/queue-git.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { addTasks, filesOnBranch, githubEnv, mockFlags, projectWithRemote, queueCli, queueItems, writeItemScript } from './queue-run-helpers.js';

const TOKEN = PLANTED_SECRETS['GITHUB_TOKEN'] as string;

const ISSUES: FakeIssue[] = [
  { number: 12, title: 'Fix the login', body: 'The login fails.', labels: ['ralph', 'P1'] },
  { number: 15, title: 'Add a profile page', body: 'Users want a profile.', labels: ['ralph'] },
];

describe('ralph queue run --pr', () => {
  it('pushes each completed issue branch, opens its pull request (Closes #N), comments on the issue and closes it', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: 'octo/app', issues: ISSUES });
    const { project, remote } = projectWithRemote();
    const env = githubEnv(gh.url, TOKEN);
    for (const [issue, file] of [
      ['12', 'login.txt'],
      ['15', 'profile.txt'],
    ] as const) {
      const added = await queueCli(['add', '--github-issues', issue, '--repo', 'octo/app', '--verify', `test -f ${file}`], project, env);
      expect(added.exitCode, String(added.stderr)).toBe(0);
    }
    const script = writeItemScript([
      { trigger: 'Fix the login', files: { 'login.txt': 'fixed\n' } },
      { trigger: 'Add a profile page', files: { 'profile.txt': 'profile\n' } },
    ]);
    const run = await queueCli(
      ['run', '--parallel', '2', '--pr', '--comment-progress', '--auto-close', '--repo', 'octo/app', ...mockFlags(script)],
      project,
      env,
    );
    expect(run.exitCode, String(run.stderr)).toBe(0);

    // The branches are on the remote, each with its item's work.
    expect(filesOnBranch(remote, 'ralph/gh-12')).toEqual(['.gitignore', 'README.md', 'login.txt']);
    expect(filesOnBranch(remote, 'ralph/gh-15')).toEqual(['.gitignore', 'README.md', 'profile.txt']);
    const pulls = [...gh.pulls].sort((a, b) => a.head.localeCompare(b.head));
    expect(pulls.map((p) => [p.head, p.base, p.title])).toEqual([
      ['ralph/gh-12', 'main', 'Fix the login'],
      ['ralph/gh-15', 'main', 'Add a profile page'],
    ]);
    expect(pulls[0]?.body).toMatch(/Queue item: gh-12 \(GitHub issue #12\)[\s\S]*\n\nCloses #12\n$/);
    expect(pulls[1]?.body).toContain('Closes #15');

    const items = queueItems(project);
    for (const item of items) expect(item.result?.pr_url).toMatch(/^https:\/\/github\.com\/octo\/app\/pull\/\d+$/);
    const forIssue = (n: number): string[] => gh.comments.filter((c) => c.issue === n).map((c) => c.body);
    expect(forIssue(12)).toEqual([
      'Ralph started working on this issue on the branch `ralph/gh-12`.',
      expect.stringMatching(/^Ralph finished this issue on `ralph\/gh-12`: https:\/\/github\.com\/octo\/app\/pull\/\d+ \(1 iterations, \$0\.0100\)\.$/),
    ]);
    expect(forIssue(15)).toHaveLength(2);
    expect(gh.issues.get(12)?.state).toBe('closed');
    expect(gh.issues.get(15)?.state).toBe('closed');
    for (const text of [String(run.stdout), String(run.stderr), readFileSync(join(project, '.ralph', 'queue.json'), 'utf8')]) expect(text).not.toContain(TOKEN);
  });

  it('--draft-pr opens drafts, and a task item gets no Closes line', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: 'octo/app', issues: [] });
    const { project, remote } = projectWithRemote();
    const env = githubEnv(gh.url, TOKEN);
    await addTasks(project, ['>>alpha :: verify:"test -f alpha.txt"'], env);
    const script = writeItemScript([{ trigger: 'alpha', files: { 'alpha.txt': 'a\n' } }]);
    const run = await queueCli(['run', '--pr', '--draft-pr', '--repo', 'octo/app', ...mockFlags(script)], project, env);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const posts = gh.requests.filter((r) => r.method === 'POST' && r.path === '/repos/octo/app/pulls');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toMatchObject({ head: 'ralph/t1', base: 'main', title: 'alpha', draft: true });
    expect(String((posts[0]?.body as { body: string }).body)).not.toContain('Closes');
    expect(git(remote, 'branch', '--list', 'ralph/t1').trim()).toBe('ralph/t1');
  });

  it('a branch without new commits is neither pushed nor proposed', async () => {
    const { project, remote } = projectWithRemote();
    git(project, 'branch', 'ralph/t9');
    const client = { createPullRequest: () => Promise.reject(new Error('must not be called')) } as unknown as GithubClient;
    const item = {
      id: 't9',
      source: 'task',
      title: 'noop',
      spec: 'noop',
      priority: 5,
      depends_on: [],
      state: 'completed',
      created_at: '',
      branch: 'ralph/t9',
    } as const;
    const outcome = await openPullRequest(
      createQueueGit(createProcessRunner()),
      project,
      { ...item, depends_on: [] },
      { client, remote: 'origin', base: 'main', draft: false, autoClose: false },
      undefined,
    );
    expect(outcome).toEqual({ kind: 'nothing', why: 'ralph/t9 has no commits that main lacks' });
    expect(git(remote, 'branch', '--list', 'ralph/t9').trim()).toBe('');
  });

  it('a branch whose pull request is already open (an item resumed after Ctrl+C) gets that pull request again', async () => {
    const gh = await startFakeGithub({ token: TOKEN, repo: 'octo/app', issues: [] });
    const { project } = projectWithRemote();
    git(project, 'switch', '-q', '-c', 'ralph/t2');
    git(project, 'commit', '-q', '--allow-empty', '-m', 'work');
    git(project, 'switch', '-q', 'main');
    const client = createGithubClient({ repo: { host: 'github.com', owner: 'octo', name: 'app' }, slug: 'octo/app', apiUrl: gh.url }, TOKEN, {
      retryDelaysMs: [],
    });
    const item = {
      id: 't2',
      source: 'task',
      title: 'beta',
      spec: 'beta',
      priority: 5,
      depends_on: [],
      state: 'running',
      created_at: '',
      branch: 'ralph/t2',
    } as const;
    const plan = { client, remote: 'origin', base: 'main', draft: false, autoClose: false };
    const git2 = createQueueGit(createProcessRunner());
    const first = await openPullRequest(git2, project, { ...item, depends_on: [] }, plan, undefined);
    const again = await openPullRequest(git2, project, { ...item, depends_on: [] }, plan, undefined);
    expect(first).toMatchObject({ kind: 'opened', url: 'https://github.com/octo/app/pull/101' });
    expect(again).toEqual(first);
    expect(gh.pulls).toHaveLength(1);
  });

  it('a pull request GitHub refuses leaves the item completed, its branch pushed, and says why (exit 1)', async () => {
    const gh = await startFakeGithub({ token: 'another-token', repo: 'octo/app', issues: [] });
    const { project } = projectWithRemote();
    await addTasks(project, ['>>alpha :: verify:"test -f alpha.txt"']);
    const script = writeItemScript([{ trigger: 'alpha', files: { 'alpha.txt': 'a\n' } }]);
    const run = await queueCli(['run', '--pr', '--repo', 'octo/app', ...mockFlags(script)], project, githubEnv(gh.url, TOKEN));
    expect(run.exitCode).toBe(1);
    expect(String(run.stderr)).toMatch(/t1: no pull request: GitHub refused the token while trying to open a pull request from ralph\/t1 \(401/);
    expect(queueItems(project)[0]).toMatchObject({ state: 'completed', result: { error: expect.stringMatching(/^pull request: GitHub refused the token/) } });
  });
});
