import { Octokit } from '@octokit/rest';
import { isRecord } from '../../core/guards.js';
import { ExitCode, RalphError } from '../../errors.js';
import { MISSING_TOKEN_HINT } from './github-token.js';
import type { GithubTarget } from './github-target.js';

/**
 * What Ralph asks of GitHub, over its REST API through Octokit: the issues a
 * queue is filled from, and what `ralph queue run` does when an item is done
 * (a comment, a pull request, labels, closing the issue). Every failure is a
 * RalphError in our words: the status and GitHub's message, never the
 * request's headers, so the token cannot leak through an error.
 */
export interface GithubIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  state: string;
  url: string;
}

export interface IssueFilter {
  labels?: string[];
  /** A milestone's number or its title. */
  milestone?: string;
  /** A login, `none` or `*`. */
  assignee?: string;
}

export interface PullRequestInput {
  head: string;
  base: string;
  title: string;
  body: string;
  /** The issue the pull request resolves: `Closes #N` is added to the body. */
  closes?: number;
  /** Opened as a draft, for a person to mark ready. */
  draft?: boolean;
}

export interface GithubClient {
  /** owner/name */
  readonly repo: string;
  listIssues(filter: IssueFilter): Promise<GithubIssue[]>;
  getIssue(issueNumber: number): Promise<GithubIssue>;
  commentOnIssue(issueNumber: number, body: string): Promise<{ url: string }>;
  createPullRequest(input: PullRequestInput): Promise<{ number: number; url: string }>;
  closeIssue(issueNumber: number): Promise<void>;
  addLabels(issueNumber: number, labels: readonly string[]): Promise<void>;
}

const REQUEST_TIMEOUT_MS = 30_000;
const PER_PAGE = 100;

function labelNames(labels: unknown): string[] {
  if (!Array.isArray(labels)) return [];
  return labels.flatMap((label) => (typeof label === 'string' ? [label] : isRecord(label) && typeof label['name'] === 'string' ? [label['name']] : []));
}

function toIssue(raw: { number: number; title: string; body?: string | null; labels: unknown; state: string; html_url: string }): GithubIssue {
  return { number: raw.number, title: raw.title, body: raw.body ?? '', labels: labelNames(raw.labels), state: raw.state, url: raw.html_url };
}

/** The body of a pull request that closes `issue` when merged. */
export function pullRequestBody(body: string, closes: number | undefined): string {
  if (closes === undefined || new RegExp(`\\b(?:closes|fixes|resolves)\\s+#${closes}\\b`, 'i').test(body)) return body;
  return `${body.replace(/\s*$/, '')}\n\nCloses #${closes}\n`.replace(/^\n+/, '');
}

function describeFailure(what: string, error: unknown, target: GithubTarget): RalphError {
  const status = isRecord(error) && typeof error['status'] === 'number' ? error['status'] : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (status === 401) {
    return new RalphError(
      `GitHub refused the token while trying to ${what} (401: ${message}).`,
      ExitCode.RuntimeError,
      `The token is wrong or expired. ${MISSING_TOKEN_HINT}`,
    );
  }
  if (status === 403 || status === 404) {
    return new RalphError(
      `GitHub answered ${status} while trying to ${what} in ${target.slug}: ${message}.`,
      ExitCode.RuntimeError,
      'Check the repository name (--repo owner/name) and that the token may read it (and write, for pull requests and comments); a 403 can also be the API rate limit.',
    );
  }
  if (status !== undefined && status !== 500)
    return new RalphError(`GitHub answered ${status} while trying to ${what} in ${target.slug}: ${message}.`, ExitCode.RuntimeError);
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return new RalphError(
    `Could not reach the GitHub API at ${target.apiUrl} to ${what}: ${message}${cause}.`,
    ExitCode.RuntimeError,
    'Check the network, or GITHUB_API_URL if it is set.',
  );
}

export function createGithubClient(target: GithubTarget, token: string, warn: (message: string) => void = () => undefined): GithubClient {
  const octokit = new Octokit({
    auth: token,
    baseUrl: target.apiUrl,
    userAgent: 'ralph-queue',
    log: { debug: () => undefined, info: () => undefined, warn: (message: string) => warn(message), error: () => undefined },
    request: {
      fetch: (url: string | URL, init?: RequestInit) => fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    },
  });
  const { owner, name: repo } = target.repo;
  const call = async <T>(what: string, action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      throw describeFailure(what, error, target);
    }
  };

  const milestoneNumber = async (milestone: string): Promise<string> => {
    if (/^(\d+|\*|none)$/.test(milestone)) return milestone;
    const all = await call('list milestones', () => octokit.paginate(octokit.rest.issues.listMilestones, { owner, repo, state: 'all', per_page: PER_PAGE }));
    const found = all.find((m) => m.title === milestone);
    if (!found) {
      const known = all.map((m) => `"${m.title}"`).join(', ');
      throw new RalphError(
        `${target.slug} has no milestone "${milestone}".`,
        ExitCode.Usage,
        known === '' ? 'The repository has no milestones.' : `Its milestones: ${known}.`,
      );
    }
    return String(found.number);
  };

  return {
    repo: target.slug,
    async listIssues(filter) {
      const milestone = filter.milestone !== undefined ? await milestoneNumber(filter.milestone) : undefined;
      const issues = await call('list issues', () =>
        octokit.paginate(octokit.rest.issues.listForRepo, {
          owner,
          repo,
          state: 'open',
          per_page: PER_PAGE,
          ...(filter.labels && filter.labels.length > 0 ? { labels: filter.labels.join(',') } : {}),
          ...(milestone !== undefined ? { milestone } : {}),
          ...(filter.assignee !== undefined ? { assignee: filter.assignee } : {}),
        }),
      );
      // The issues endpoint lists pull requests too; they are not work items.
      return issues.filter((issue) => issue.pull_request === undefined).map(toIssue);
    },
    async getIssue(issueNumber) {
      const { data } = await call(`read issue #${issueNumber}`, () => octokit.rest.issues.get({ owner, repo, issue_number: issueNumber }));
      if (data.pull_request !== undefined) {
        throw new RalphError(`#${issueNumber} in ${target.slug} is a pull request, not an issue.`, ExitCode.Usage, 'Give the numbers of issues.');
      }
      return toIssue(data);
    },
    async commentOnIssue(issueNumber, body) {
      const { data } = await call(`comment on issue #${issueNumber}`, () =>
        octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body }),
      );
      return { url: data.html_url };
    },
    async createPullRequest(input) {
      const body = pullRequestBody(input.body, input.closes);
      const { data } = await call(`open a pull request from ${input.head}`, () =>
        octokit.rest.pulls.create({ owner, repo, head: input.head, base: input.base, title: input.title, body, ...(input.draft ? { draft: true } : {}) }),
      );
      return { number: data.number, url: data.html_url };
    },
    async closeIssue(issueNumber) {
      await call(`close issue #${issueNumber}`, () =>
        octokit.rest.issues.update({ owner, repo, issue_number: issueNumber, state: 'closed', state_reason: 'completed' }),
      );
    },
    async addLabels(issueNumber, labels) {
      await call(`label issue #${issueNumber}`, () => octokit.rest.issues.addLabels({ owner, repo, issue_number: issueNumber, labels: [...labels] }));
    },
  };
}
