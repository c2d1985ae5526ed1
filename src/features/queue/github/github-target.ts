import { defaultApiUrl, formatRepo, parseRemoteUrl, parseRepoSlug, type GithubRepo } from '../../../core/github-remote.js';
import { ExitCode, RalphError, UsageError } from '../../../errors.js';
import { runGitText } from '../../../infra/git.js';
import type { ProcessRunner } from '../../../ports.js';

/**
 * The repository a queue command talks to and the API that serves it.
 * `--repo owner/name` (or a repository URL) wins; otherwise the project's
 * `origin` remote names it, which is also where `ralph queue run --pr`
 * pushes. The API is GITHUB_API_URL when set (GitHub Actions sets it; so do
 * GitHub Enterprise users), else the public API for github.com and
 * `https://<host>/api/v3` for an Enterprise host found in the remote.
 */
export interface GithubTarget {
  repo: GithubRepo;
  /** owner/name */
  slug: string;
  apiUrl: string;
}

export interface TargetInput {
  repoFlag?: string;
  env: Readonly<Record<string, string | undefined>>;
  runner: ProcessRunner;
  cwd: string;
}

function repoFromFlag(flag: string): GithubRepo {
  const slug = parseRepoSlug(flag);
  if (slug) return { host: 'github.com', ...slug };
  const url = parseRemoteUrl(flag);
  if (url) return url;
  throw new UsageError(
    `--repo "${flag}" is not a repository; expected owner/name (for example octocat/hello-world) or its URL.`,
    'Run ralph queue add --help to see every option.',
  );
}

async function repoFromOrigin(runner: ProcessRunner, cwd: string): Promise<GithubRepo> {
  const result = await runGitText(runner, ['remote', 'get-url', 'origin'], { cwd });
  const url = result.exitCode === 0 ? result.stdout.trim() : '';
  if (url === '') {
    throw new RalphError(
      'No GitHub repository: --repo is not given and this project has no `origin` remote.',
      ExitCode.Usage,
      'Name it with --repo owner/name, or add the remote: git remote add origin https://github.com/OWNER/NAME.git',
    );
  }
  const repo = parseRemoteUrl(url);
  if (!repo) {
    throw new RalphError(`The origin remote (${url}) does not name a GitHub repository.`, ExitCode.Usage, 'Name the repository with --repo owner/name.');
  }
  return repo;
}

/** GITHUB_API_URL, checked: an http(s) URL without a trailing slash. */
export function apiUrlFrom(env: Readonly<Record<string, string | undefined>>, host: string): string {
  const raw = env['GITHUB_API_URL']?.trim();
  if (!raw) return defaultApiUrl(host);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(
      `GITHUB_API_URL "${raw}" is not a URL.`,
      'Set it to the REST API address, for example https://api.github.com or https://github.example.com/api/v3, or unset it.',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`GITHUB_API_URL "${raw}" is not an http(s) URL.`, 'Set it to the REST API address, for example https://api.github.com, or unset it.');
  }
  return raw.replace(/\/+$/, '');
}

export async function resolveGithubTarget(input: TargetInput): Promise<GithubTarget> {
  const repo = input.repoFlag !== undefined ? repoFromFlag(input.repoFlag) : await repoFromOrigin(input.runner, input.cwd);
  return { repo, slug: formatRepo(repo), apiUrl: apiUrlFrom(input.env, repo.host) };
}
