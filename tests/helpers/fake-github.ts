import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/**
 * A small GitHub REST API on 127.0.0.1 for Octokit to talk to (GITHUB_API_URL
 * points here; tests never reach the network). It serves what Ralph's queue
 * asks of GitHub — issues (listed page by page, with a pull request mixed in
 * as the real API does), one issue, milestones, comments, labels, pull
 * requests, closing an issue — answers 401 to any other token, and records
 * every request so a test can assert what was asked. For `--follow-checks`
 * it serves each commit's check runs and statuses from the test's `ci`
 * answer (asked anew at every look, so checks can go from pending to done),
 * and a pull request's review comments, reviews and replies.
 */
export interface FakeIssue {
  number: number;
  title: string;
  body?: string;
  labels?: string[];
  state?: 'open' | 'closed';
  milestone?: { number: number; title: string };
  assignee?: string;
  /** Listed among the issues like GitHub does, but it is a pull request. */
  pullRequest?: boolean;
}

export interface FakeCheckRun {
  name: string;
  status?: 'queued' | 'in_progress' | 'completed';
  conclusion?: 'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | null;
  output?: { title?: string; summary?: string; text?: string };
  annotations?: { path: string; start_line: number; annotation_level: string; message: string }[];
}

export interface FakeStatus {
  context: string;
  state: 'pending' | 'success' | 'failure' | 'error';
  description?: string;
}

/** What the CI says about a commit at the `look`-th time it is asked (1 first). */
export type FakeCi = (sha: string, look: number) => { checkRuns?: FakeCheckRun[]; statuses?: FakeStatus[] };

export interface FakeReviewComment {
  id: number;
  pull: number;
  body: string;
  path?: string;
  line?: number;
  user: string;
  created_at: string;
  in_reply_to_id?: number;
}

export interface FakeReview {
  id: number;
  pull: number;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED';
  body: string;
  user: string;
  submitted_at: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | undefined;
}

export interface FakeGithub {
  /** The API base URL, for GITHUB_API_URL. */
  url: string;
  requests: RecordedRequest[];
  issues: Map<number, FakeIssue>;
  comments: { issue: number; body: string }[];
  pulls: { number: number; head: string; base: string; title: string; body: string }[];
  /** Line comments on pull requests, Ralph's replies included (they have in_reply_to_id). */
  reviewComments: FakeReviewComment[];
  reviews: FakeReview[];
  /** A reviewer's line comment, written now. */
  addReviewComment(pull: number, body: string, where?: { path: string; line: number }, user?: string): FakeReviewComment;
  addReview(pull: number, state: FakeReview['state'], body: string, user?: string): FakeReview;
  /** The next requests (one answer each, in order) get these answers instead of being served. */
  failNext(...answers: FakeFailure[]): void;
  close(): Promise<void>;
}

/** An error answer the fake gives instead of serving a request. */
export interface FakeFailure {
  status: number;
  message?: string;
  headers?: Record<string, string>;
}

export interface FakeGithubOptions {
  token: string;
  /** owner/name the server serves; any other is a 404. */
  repo: string;
  issues: FakeIssue[];
  /** Items per page at most, whatever per_page asks: small, so listing needs several pages. */
  pageSize?: number;
  /** The checks of each commit; without it every commit has none. */
  ci?: FakeCi;
}

function issueJson(repo: string, issue: FakeIssue): Record<string, unknown> {
  return {
    number: issue.number,
    title: issue.title,
    body: issue.body ?? null,
    labels: (issue.labels ?? []).map((name) => ({ name })),
    state: issue.state ?? 'open',
    html_url: `https://github.com/${repo}/${issue.pullRequest ? 'pull' : 'issues'}/${issue.number}`,
    milestone: issue.milestone ?? null,
    assignee: issue.assignee ? { login: issue.assignee } : null,
    ...(issue.pullRequest ? { pull_request: { url: `https://api.github.com/repos/${repo}/pulls/${issue.number}` } } : {}),
  };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export async function startFakeGithub(options: FakeGithubOptions): Promise<FakeGithub> {
  const issues = new Map(options.issues.map((issue) => [issue.number, issue]));
  const requests: RecordedRequest[] = [];
  const comments: FakeGithub['comments'] = [];
  const pulls: FakeGithub['pulls'] = [];
  const pageSize = options.pageSize ?? 2;
  const prefix = `/repos/${options.repo}`;
  let nextPull = 100;
  const failures: FakeFailure[] = [];
  const reviewComments: FakeReviewComment[] = [];
  const reviews: FakeReview[] = [];
  const looks = new Map<string, number>();
  // A check run keeps its id across looks (by commit and name), as on GitHub.
  const runIds = new Map<string, number>();
  const runAnnotations = new Map<number, FakeCheckRun['annotations']>();
  let nextId = 5000;
  const ciFor = (sha: string, count: boolean): ReturnType<FakeCi> => {
    const look = (looks.get(sha) ?? 0) + (count ? 1 : 0);
    looks.set(sha, look);
    return options.ci ? options.ci(sha, Math.max(1, look)) : {};
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = await readBody(req);
      const query = Object.fromEntries(url.searchParams);
      requests.push({ method: req.method ?? '', path: url.pathname, query, body, authorization: req.headers.authorization });
      const auth = req.headers.authorization ?? '';
      if (auth !== `token ${options.token}` && auth !== `bearer ${options.token}` && auth !== `Bearer ${options.token}`) {
        send(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
        return;
      }
      const failure = failures.shift();
      if (failure) {
        send(res, failure.status, { message: failure.message ?? `Failure ${failure.status}` }, failure.headers);
        return;
      }
      if (!url.pathname.startsWith(`${prefix}/`)) {
        send(res, 404, { message: 'Not Found' });
        return;
      }
      const route = `${req.method} ${url.pathname.slice(prefix.length)}`;
      let match: RegExpExecArray | null;
      if (route === 'GET /issues') {
        const labels = (query['labels'] ?? '').split(',').filter((l) => l !== '');
        const matching = [...issues.values()].filter(
          (issue) =>
            (issue.state ?? 'open') === (query['state'] ?? 'open') &&
            labels.every((l) => (issue.labels ?? []).includes(l)) &&
            (query['milestone'] === undefined || String(issue.milestone?.number) === query['milestone']) &&
            (query['assignee'] === undefined || issue.assignee === query['assignee']),
        );
        const perPage = Math.min(pageSize, Number(query['per_page'] ?? 30));
        const page = Number(query['page'] ?? 1);
        const slice = matching.slice((page - 1) * perPage, page * perPage);
        const headers: Record<string, string> = {};
        if (page * perPage < matching.length) {
          const next = new URL(url.href.replace('http://127.0.0.1', address));
          next.searchParams.set('page', String(page + 1));
          headers['link'] = `<${next.href}>; rel="next"`;
        }
        send(
          res,
          200,
          slice.map((issue) => issueJson(options.repo, issue)),
          headers,
        );
      } else if (route === 'GET /milestones') {
        const seen = new Map<number, { number: number; title: string }>();
        for (const issue of issues.values()) if (issue.milestone) seen.set(issue.milestone.number, issue.milestone);
        send(res, 200, [...seen.values()]);
      } else if ((match = /^GET \/issues\/(\d+)$/.exec(route))) {
        const issue = issues.get(Number(match[1]));
        if (issue) send(res, 200, issueJson(options.repo, issue));
        else send(res, 404, { message: 'Not Found' });
      } else if ((match = /^PATCH \/issues\/(\d+)$/.exec(route))) {
        const issue = issues.get(Number(match[1]));
        if (!issue) return send(res, 404, { message: 'Not Found' });
        const state = (body as { state?: 'open' | 'closed' } | undefined)?.state;
        if (state) issue.state = state;
        send(res, 200, issueJson(options.repo, issue));
      } else if ((match = /^POST \/issues\/(\d+)\/comments$/.exec(route))) {
        const issue = Number(match[1]);
        // A pull request is an issue too: its conversation takes comments through the same endpoint.
        if (!issues.has(issue) && !pulls.some((p) => p.number === issue)) return send(res, 404, { message: 'Not Found' });
        comments.push({ issue, body: String((body as { body?: unknown }).body) });
        send(res, 201, {
          id: comments.length,
          body: (body as { body?: unknown }).body,
          html_url: `https://github.com/${options.repo}/issues/${issue}#issuecomment-${comments.length}`,
        });
      } else if ((match = /^POST \/issues\/(\d+)\/labels$/.exec(route))) {
        const issue = issues.get(Number(match[1]));
        if (!issue) return send(res, 404, { message: 'Not Found' });
        issue.labels = [...new Set([...(issue.labels ?? []), ...((body as { labels?: string[] }).labels ?? [])])];
        send(
          res,
          200,
          issue.labels.map((name) => ({ name })),
        );
      } else if ((match = /^GET \/commits\/([0-9a-f]{40})\/check-runs$/.exec(route))) {
        const sha = match[1] as string;
        const runs = (ciFor(sha, true).checkRuns ?? []).map((run) => {
          const key = `${sha} ${run.name}`;
          const id = runIds.get(key) ?? (nextId += 1);
          runIds.set(key, id);
          runAnnotations.set(id, run.annotations);
          return {
            id,
            name: run.name,
            head_sha: sha,
            status: run.status ?? 'completed',
            conclusion: (run.status ?? 'completed') === 'completed' ? (run.conclusion ?? 'success') : null,
            output: {
              title: run.output?.title ?? null,
              summary: run.output?.summary ?? null,
              text: run.output?.text ?? null,
              annotations_count: run.annotations?.length ?? 0,
            },
          };
        });
        send(res, 200, { total_count: runs.length, check_runs: runs });
      } else if ((match = /^GET \/commits\/([0-9a-f]{40})\/status$/.exec(route))) {
        const sha = match[1] as string;
        const statuses = ciFor(sha, false).statuses ?? [];
        const state = statuses.some((st) => st.state === 'failure' || st.state === 'error')
          ? 'failure'
          : statuses.length > 0 && statuses.every((st) => st.state === 'success')
            ? 'success'
            : 'pending';
        send(res, 200, { state, sha, total_count: statuses.length, statuses: statuses.map((st) => ({ ...st, description: st.description ?? null })) });
      } else if ((match = /^GET \/check-runs\/(\d+)\/annotations$/.exec(route))) {
        send(res, 200, runAnnotations.get(Number(match[1])) ?? []);
      } else if ((match = /^GET \/pulls\/(\d+)\/comments$/.exec(route))) {
        const pull = Number(match[1]);
        send(
          res,
          200,
          reviewComments.filter((c) => c.pull === pull).map((c) => ({ ...c, user: { login: c.user } })),
        );
      } else if ((match = /^GET \/pulls\/(\d+)\/reviews$/.exec(route))) {
        const pull = Number(match[1]);
        send(
          res,
          200,
          reviews.filter((r) => r.pull === pull).map((r) => ({ ...r, user: { login: r.user } })),
        );
      } else if ((match = /^POST \/pulls\/(\d+)\/comments\/(\d+)\/replies$/.exec(route))) {
        const pull = Number(match[1]);
        const parent = reviewComments.find((c) => c.pull === pull && c.id === Number(match?.[2]));
        if (!parent) return send(res, 404, { message: 'Not Found' });
        const reply: FakeReviewComment = {
          id: (nextId += 1),
          pull,
          body: String((body as { body?: unknown }).body),
          user: 'ralph-bot',
          created_at: new Date().toISOString(),
          in_reply_to_id: parent.id,
          ...(parent.path !== undefined ? { path: parent.path } : {}),
          ...(parent.line !== undefined ? { line: parent.line } : {}),
        };
        reviewComments.push(reply);
        send(res, 201, { ...reply, user: { login: reply.user } });
      } else if (route === 'GET /pulls') {
        const [owner] = options.repo.split('/');
        const open = pulls.filter((p) => query['head'] === undefined || `${owner}:${p.head}` === query['head']);
        send(
          res,
          200,
          open.map((p) => ({ number: p.number, html_url: `https://github.com/${options.repo}/pull/${p.number}` })),
        );
      } else if (route === 'POST /pulls') {
        const input = body as { head: string; base: string; title: string; body: string };
        if (pulls.some((p) => p.head === input.head)) return send(res, 422, { message: `Validation Failed: A pull request already exists for ${input.head}.` });
        nextPull += 1;
        pulls.push({ number: nextPull, head: input.head, base: input.base, title: input.title, body: input.body });
        send(res, 201, { number: nextPull, html_url: `https://github.com/${options.repo}/pull/${nextPull}` });
      } else {
        send(res, 404, { message: `Not Found: ${route}` });
      }
    })().catch((error: unknown) => send(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  onTestFinished(close);
  const failNext = (...answers: FakeFailure[]): void => {
    failures.push(...answers);
  };
  const addReviewComment: FakeGithub['addReviewComment'] = (pull, text, where, user = 'reviewer') => {
    const comment: FakeReviewComment = { id: (nextId += 1), pull, body: text, user, created_at: new Date().toISOString(), ...(where ?? {}) };
    reviewComments.push(comment);
    return comment;
  };
  const addReview: FakeGithub['addReview'] = (pull, state, text, user = 'reviewer') => {
    const review: FakeReview = { id: (nextId += 1), pull, state, body: text, user, submitted_at: new Date().toISOString() };
    reviews.push(review);
    return review;
  };
  return { url: address, requests, issues, comments, pulls, reviewComments, reviews, addReviewComment, addReview, failNext, close };
}
