/**
 * Which GitHub repository a project is: from `--repo owner/name` or from the
 * URL of its `origin` remote, in any form git accepts for GitHub and GitHub
 * Enterprise: https://host/owner/name(.git), ssh://git@host[:port]/owner/name,
 * git@host:owner/name(.git).
 */
export interface GithubRepo {
  /** github.com, or a GitHub Enterprise host. */
  host: string;
  owner: string;
  name: string;
}

const PART = /^[A-Za-z0-9_.-]+$/;

function validParts(owner: string, name: string): boolean {
  return PART.test(owner) && PART.test(name) && owner !== '.' && owner !== '..' && name !== '.' && name !== '..';
}

/** `owner/name`; anything else is undefined. */
export function parseRepoSlug(text: string): { owner: string; name: string } | undefined {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(text.trim());
  if (!match) return undefined;
  const owner = match[1] as string;
  const name = (match[2] as string).replace(/\.git$/, '');
  return validParts(owner, name) ? { owner, name } : undefined;
}

function fromPath(host: string, path: string): GithubRepo | undefined {
  const slug = parseRepoSlug(path.replace(/^\/+/, '').replace(/\/+$/, ''));
  return slug && host !== '' ? { host: host.toLowerCase(), ...slug } : undefined;
}

export function parseRemoteUrl(url: string): GithubRepo | undefined {
  const text = url.trim();
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(text);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return fromPath(scp[1] as string, scp[2] as string);
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return undefined;
  }
  if (!['https:', 'http:', 'ssh:', 'git:'].includes(parsed.protocol)) return undefined;
  return fromPath(parsed.hostname, decodeURIComponent(parsed.pathname));
}

export function formatRepo(repo: Pick<GithubRepo, 'owner' | 'name'>): string {
  return `${repo.owner}/${repo.name}`;
}

export const PUBLIC_API_URL = 'https://api.github.com';

/**
 * The REST API of `host` when nothing names one: the public API for
 * github.com, `https://<host>/api/v3` for a GitHub Enterprise Server.
 */
export function defaultApiUrl(host: string): string {
  return host === 'github.com' || host === 'www.github.com' ? PUBLIC_API_URL : `https://${host}/api/v3`;
}
