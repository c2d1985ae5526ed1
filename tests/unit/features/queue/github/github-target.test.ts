import { describe, expect, it } from 'vitest';
import { resolveGithubTarget } from '../../../../../src/features/queue/github/github-target.js';
import { fakeRunner } from '../../../../helpers/fake-runner.js';

const origin = (url: string, exitCode = 0) =>
  fakeRunner([
    { command: 'git remote get-url origin', result: { exitCode, stdout: `${url}\n`, stderr: exitCode === 0 ? '' : "error: No such remote 'origin'\n" } },
  ]);

describe('the repository and API a queue command talks to', () => {
  it.each<[string, Record<string, string>, string, string]>([
    ['git@github.com:octo/app.git', {}, 'octo/app', 'https://api.github.com'],
    ['https://github.com/octo/app', { GITHUB_API_URL: 'http://127.0.0.1:8080/' }, 'octo/app', 'http://127.0.0.1:8080'],
    ['ssh://git@ghe.corp.example:2222/team/app.git', {}, 'team/app', 'https://ghe.corp.example/api/v3'],
    ['https://ghe.corp.example/team/app.git', { GITHUB_API_URL: 'https://ghe.corp.example/api/v3' }, 'team/app', 'https://ghe.corp.example/api/v3'],
  ])('origin %s', async (url, env, slug, apiUrl) => {
    const target = await resolveGithubTarget({ env, runner: origin(url), cwd: '/p' });
    expect({ slug: target.slug, apiUrl: target.apiUrl }).toEqual({ slug, apiUrl });
  });

  it('--repo wins over the origin remote, which is not even asked', async () => {
    const runner = fakeRunner([]);
    expect((await resolveGithubTarget({ repoFlag: 'octo/other', env: {}, runner, cwd: '/p' })).slug).toBe('octo/other');
    expect(runner.calls).toEqual([]);
  });

  it('no origin, or one that is not GitHub, is a clear error', async () => {
    await expect(resolveGithubTarget({ env: {}, runner: origin('', 2), cwd: '/p' })).rejects.toThrow(
      /--repo is not given and this project has no `origin` remote/,
    );
    await expect(resolveGithubTarget({ env: {}, runner: origin('/srv/git/app.git'), cwd: '/p' })).rejects.toThrow(
      /The origin remote \(\/srv\/git\/app\.git\) does not name a GitHub repository/,
    );
  });
});
