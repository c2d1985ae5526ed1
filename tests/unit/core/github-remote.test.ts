import { describe, expect, it } from 'vitest';
import { defaultApiUrl, parseRemoteUrl, parseRepoSlug } from '../../../src/core/github-remote.js';

describe('the repository of a remote URL', () => {
  it.each<[string, string | undefined]>([
    ['https://github.com/octocat/hello-world.git', 'github.com octocat/hello-world'],
    ['https://github.com/octocat/hello-world', 'github.com octocat/hello-world'],
    ['https://x-access-token:abc@github.com/octocat/hello-world.git', 'github.com octocat/hello-world'],
    ['git@github.com:octocat/hello-world.git', 'github.com octocat/hello-world'],
    ['ssh://git@github.com/octocat/hello-world.git', 'github.com octocat/hello-world'],
    ['ssh://git@ghe.corp.example:2222/team/app.git', 'ghe.corp.example team/app'],
    ['https://GHE.corp.example/team/app/', 'ghe.corp.example team/app'],
    ['git@ghe.corp.example:team/app', 'ghe.corp.example team/app'],
    ['/srv/git/app.git', undefined],
    ['file:///srv/git/app.git', undefined],
    ['https://github.com/octocat', undefined],
    ['https://github.com/a/b/c', undefined],
    ['not a url', undefined],
  ])('%s → %s', (url, expected) => {
    const repo = parseRemoteUrl(url);
    expect(repo ? `${repo.host} ${repo.owner}/${repo.name}` : undefined).toBe(expected);
  });

  it.each<[string, string | undefined]>([
    ['octocat/hello-world', 'octocat/hello-world'],
    ['octocat/hello-world.git', 'octocat/hello-world'],
    ['octocat', undefined],
    ['a/b/c', undefined],
    ['../x', undefined],
    ['bad repo/x', undefined],
  ])('--repo %s → %s', (text, expected) => {
    const slug = parseRepoSlug(text);
    expect(slug ? `${slug.owner}/${slug.name}` : undefined).toBe(expected);
  });

  it('the API of github.com is the public one; an Enterprise host serves /api/v3', () => {
    expect(defaultApiUrl('github.com')).toBe('https://api.github.com');
    expect(defaultApiUrl('ghe.corp.example')).toBe('https://ghe.corp.example/api/v3');
  });
});
