import { Octokit } from '@octokit/rest';
import { isRecord } from '../../../core/guards.js';
import type { RawCheckRun, RawStatus } from '../../../core/queue/follow/ci-checks.js';
import type { RawReview, RawReviewComment } from '../../../core/queue/follow/review-feedback.js';
import { ExitCode, RalphError } from '../../../errors.js';
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
  /** The open pull request from this branch of the repository, if there is one. */
  findOpenPullRequest(head: string): Promise<{ number: number; url: string } | undefined>;
  closeIssue(issueNumber: number): Promise<void>;
  addLabels(issueNumber: number, labels: readonly string[]): Promise<void>;
  /** The checks of a commit, for `--follow-checks`. */
  listCheckRuns(sha: string): Promise<RawCheckRun[]>;
  listStatuses(sha: string): Promise<RawStatus[]>;
  /** `path:line level: message` for each annotation of a check run. */
  listAnnotations(checkRunId: number): Promise<string[]>;
  /** A pull request's line comments and reviews, for `--follow-reviews`. */
  listReviewComments(pullNumber: number): Promise<RawReviewComment[]>;
  listReviews(pullNumber: number): Promise<RawReview[]>;
  replyToReviewComment(pullNumber: number, commentId: number, body: string): Promise<{ id: number }>;
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

/**
 * The HTTP status of GitHub's answer, or undefined when there was none.
 * Octokit reports a request that never got an answer (refused, reset, timed
 * out) as status 500 too, but without a response: that is no server error.
 */
function statusOf(error: unknown): number | undefined {
  if (!isRecord(error) || typeof error['status'] !== 'number' || !isRecord(error['response'])) return undefined;
  return error['status'];
}

/** A header of the answer an Octokit error carries (lower-case name). */
function headerOf(error: unknown, name: string): string | undefined {
  const response = isRecord(error) ? error['response'] : undefined;
  const headers = isRecord(response) ? response['headers'] : undefined;
  const value = isRecord(headers) ? headers[name] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** `12:04:05 UTC (in 14 min)` for a unix time in seconds. */
function resetAt(unixSeconds: number, now: number): string {
  const minutes = Math.max(1, Math.ceil((unixSeconds * 1000 - now) / 60_000));
  return `${new Date(unixSeconds * 1000).toISOString().slice(11, 19)} UTC (in ${minutes} min)`;
}

/**
 * GitHub's answer when the token's request budget is spent: the primary limit
 * (403/429 with `x-ratelimit-remaining: 0`, reset time in `x-ratelimit-reset`)
 * or the secondary one (`retry-after` seconds).
 */
function rateLimitFailure(what: string, error: unknown, status: number, now: number): RalphError | undefined {
  if (status !== 403 && status !== 429) return undefined;
  const reset = Number(headerOf(error, 'x-ratelimit-reset'));
  if (headerOf(error, 'x-ratelimit-remaining') === '0' && Number.isFinite(reset) && reset > 0)
    return new RalphError(
      `GitHub's API rate limit for this token is used up (answer ${status} while trying to ${what}); it resets at ${resetAt(reset, now)}.`,
      ExitCode.RuntimeError,
      'Run the command again after the reset, or use a token with a higher limit (a GitHub App token or a personal access token).',
    );
  const retryAfter = Number(headerOf(error, 'retry-after'));
  if (Number.isFinite(retryAfter) && retryAfter > 0)
    return new RalphError(
      `GitHub asked Ralph to slow down (answer ${status}, a secondary rate limit) while trying to ${what}; it may be tried again in ${Math.ceil(retryAfter)} s.`,
      ExitCode.RuntimeError,
      'Run the command again in a minute, with fewer loops at once (--parallel) if it keeps happening.',
    );
  return undefined;
}

function describeFailure(what: string, error: unknown, target: GithubTarget, tries: number, now: number): RalphError {
  const status = statusOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (status === 401) {
    return new RalphError(
      `GitHub refused the token while trying to ${what} (401: ${message}).`,
      ExitCode.RuntimeError,
      `The token is wrong or expired. ${MISSING_TOKEN_HINT}`,
    );
  }
  const limited = status === undefined ? undefined : rateLimitFailure(what, error, status, now);
  if (limited) return limited;
  if (status === 403 || status === 404) {
    return new RalphError(
      `GitHub answered ${status} while trying to ${what} in ${target.slug}: ${message}.`,
      ExitCode.RuntimeError,
      'Check the repository name (--repo owner/name) and that the token may read it (and write, for pull requests and comments).',
    );
  }
  if (status !== undefined && status >= 500)
    return new RalphError(
      `GitHub answered ${status}, an error on GitHub's side, while trying to ${what} in ${target.slug}${tries > 1 ? ` (${tries} tries)` : ''}: ${message}.`,
      ExitCode.RuntimeError,
      'Try again later; https://www.githubstatus.com says whether GitHub has an outage.',
    );
  if (status !== undefined) return new RalphError(`GitHub answered ${status} while trying to ${what} in ${target.slug}: ${message}.`, ExitCode.RuntimeError);
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return new RalphError(
    `Could not reach the GitHub API at ${target.apiUrl} to ${what}: ${message}${cause}.`,
    ExitCode.RuntimeError,
    'Check the network, or GITHUB_API_URL if it is set.',
  );
}

/**
 * Whether a failed request is worth sending again. A server error (5xx) on a
 * read is; on a write only the gateway's answers (502, 503, 504), which mean
 * the request never reached GitHub's application, so a retry cannot open a
 * second pull request or post a comment twice.
 */
function worthRetrying(error: unknown, write: boolean): boolean {
  const status = statusOf(error);
  if (status === undefined || status < 500) return false;
  return !write || status === 502 || status === 503 || status === 504;
}

/** Waits between the tries of a request GitHub answered with a server error. */
export const GITHUB_RETRY_DELAYS_MS: readonly number[] = [1_000, 3_000, 9_000];

export interface GithubClientOptions {
  /** Notices from Octokit (deprecations and the like). */
  warn?: (message: string) => void;
  /** The waits before each retry of a server error; their count is the number of retries. */
  retryDelaysMs?: readonly number[];
}

export function createGithubClient(target: GithubTarget, token: string, options: GithubClientOptions = {}): GithubClient {
  const warn = options.warn ?? (() => undefined);
  const retryDelays = options.retryDelaysMs ?? GITHUB_RETRY_DELAYS_MS;
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
  const send = async <T>(what: string, action: () => Promise<T>, write: boolean): Promise<T> => {
    for (let tries = 1; ; tries += 1) {
      try {
        return await action();
      } catch (error) {
        const delay = retryDelays[tries - 1];
        if (delay === undefined || !worthRetrying(error, write)) throw describeFailure(what, error, target, tries, Date.now());
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  };
  const call = <T>(what: string, action: () => Promise<T>): Promise<T> => send(what, action, false);
  const change = <T>(what: string, action: () => Promise<T>): Promise<T> => send(what, action, true);

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
      const { data } = await change(`comment on issue #${issueNumber}`, () =>
        octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body }),
      );
      return { url: data.html_url };
    },
    async createPullRequest(input) {
      const body = pullRequestBody(input.body, input.closes);
      const { data } = await change(`open a pull request from ${input.head}`, () =>
        octokit.rest.pulls.create({ owner, repo, head: input.head, base: input.base, title: input.title, body, ...(input.draft ? { draft: true } : {}) }),
      );
      return { number: data.number, url: data.html_url };
    },
    async findOpenPullRequest(head) {
      const { data } = await call(`look for the pull request from ${head}`, () =>
        octokit.rest.pulls.list({ owner, repo, head: `${owner}:${head}`, state: 'open', per_page: 1 }),
      );
      const found = data[0];
      return found ? { number: found.number, url: found.html_url } : undefined;
    },
    async closeIssue(issueNumber) {
      await change(`close issue #${issueNumber}`, () =>
        octokit.rest.issues.update({ owner, repo, issue_number: issueNumber, state: 'closed', state_reason: 'completed' }),
      );
    },
    async addLabels(issueNumber, labels) {
      await change(`label issue #${issueNumber}`, () => octokit.rest.issues.addLabels({ owner, repo, issue_number: issueNumber, labels: [...labels] }));
    },
    async listCheckRuns(sha) {
      return call(`read the check runs of ${sha.slice(0, 12)}`, () =>
        octokit.paginate(octokit.rest.checks.listForRef, { owner, repo, ref: sha, per_page: PER_PAGE }),
      );
    },
    async listStatuses(sha) {
      // The combined status holds the newest status of each context; one page of 100 contexts is more than any repository has.
      const { data } = await call(`read the statuses of ${sha.slice(0, 12)}`, () =>
        octokit.rest.repos.getCombinedStatusForRef({ owner, repo, ref: sha, per_page: PER_PAGE }),
      );
      return data.statuses;
    },
    async listAnnotations(checkRunId) {
      const { data } = await call(`read the annotations of check run ${checkRunId}`, () =>
        octokit.rest.checks.listAnnotations({ owner, repo, check_run_id: checkRunId, per_page: PER_PAGE }),
      );
      return data.map((a) => `${a.path}:${a.start_line} ${a.annotation_level ?? 'notice'}: ${a.title ? `${a.title}: ` : ''}${a.message ?? ''}`);
    },
    async listReviewComments(pullNumber) {
      return call(`read the review comments of pull request #${pullNumber}`, () =>
        octokit.paginate(octokit.rest.pulls.listReviewComments, { owner, repo, pull_number: pullNumber, per_page: PER_PAGE }),
      );
    },
    async listReviews(pullNumber) {
      return call(`read the reviews of pull request #${pullNumber}`, () =>
        octokit.paginate(octokit.rest.pulls.listReviews, { owner, repo, pull_number: pullNumber, per_page: PER_PAGE }),
      );
    },
    async replyToReviewComment(pullNumber, commentId, body) {
      const { data } = await change(`reply to review comment ${commentId}`, () =>
        octokit.rest.pulls.createReplyForReviewComment({ owner, repo, pull_number: pullNumber, comment_id: commentId, body }),
      );
      return { id: data.id };
    },
  };
}
