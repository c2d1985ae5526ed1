import { randomBytes } from 'node:crypto';
import { formatCycle } from '../../core/queue/queue-graph.js';
import { freshPlaceName, issueNumberOf } from '../../core/queue/queue-ids.js';
import { itemBranch, itemWorktree, type QueueDocument, type QueueItem } from '../../core/queue/queue-item.js';
import { addItems, type QueueDraft } from '../../core/queue/queue-ops.js';
import { ExitCode, RalphError, UsageError } from '../../errors.js';
import type { Clock, ProcessRunner } from '../../ports.js';
import type { RalphPaths } from '../../state/paths.js';
import { updateQueue } from '../../state/queue-store.js';
import { createGithubClient, type GithubClient } from './github/github-client.js';
import { resolveGithubTarget } from './github/github-target.js';
import { resolveGithubToken } from './github/github-token.js';
import { issueDraft } from './github/issue-drafts.js';
import { createQueueGit } from './queue-git.js';
import { prdDrafts, taskDraft } from './task-drafts.js';
import { usedItemNames } from './used-names.js';

/** Where the new items come from: exactly one source per `ralph queue add`. */
export type QueueAddSource =
  | { kind: 'task'; line: string }
  | { kind: 'prd'; file: string }
  | { kind: 'issues'; numbers: number[] }
  | { kind: 'filter'; labels: string[]; milestone?: string; assignee?: string };

export interface QueueAddOptions {
  source: QueueAddSource;
  /** Ids every new item waits for (`--after`). */
  after: string[];
  priority?: number;
  /** Verify command for PRD and GitHub items (a task line names its own). */
  verify?: string;
  repo?: string;
}

export interface QueueAddDeps {
  paths: RalphPaths;
  env: Readonly<Record<string, string | undefined>>;
  runner: ProcessRunner;
  clock: Clock;
  notice: (message: string) => void;
  /** Builds the GitHub client; tests and the default share resolveGithubTarget/Token. */
  github?: (repoFlag: string | undefined) => Promise<GithubClient>;
}

export interface QueueAddResult {
  added: QueueItem[];
  duplicates: string[];
}

async function defaultGithub(deps: QueueAddDeps, repoFlag: string | undefined): Promise<GithubClient> {
  const target = await resolveGithubTarget({ ...(repoFlag !== undefined ? { repoFlag } : {}), env: deps.env, runner: deps.runner, cwd: deps.paths.project });
  const token = await resolveGithubToken(deps.env, deps.runner, deps.paths.project);
  return createGithubClient(target, token.value, { warn: deps.notice });
}

async function githubDrafts(options: QueueAddOptions, deps: QueueAddDeps): Promise<QueueDraft[]> {
  const source = options.source;
  const client = await (deps.github ?? ((repo) => defaultGithub(deps, repo)))(options.repo);
  const nonce = randomBytes(8).toString('hex');
  let issues;
  if (source.kind === 'issues') {
    issues = [];
    for (const n of source.numbers) {
      const issue = await client.getIssue(n);
      if (issue.state === 'closed') deps.notice(`#${n} is closed; it was not added`);
      else issues.push(issue);
    }
  } else if (source.kind === 'filter') {
    issues = await client.listIssues({
      labels: source.labels,
      ...(source.milestone !== undefined ? { milestone: source.milestone } : {}),
      ...(source.assignee !== undefined ? { assignee: source.assignee } : {}),
    });
    if (issues.length === 0) deps.notice(`no open issue of ${client.repo} matches the filter`);
  } else {
    return [];
  }
  return issues.map((issue) => issueDraft(issue, client.repo, nonce, options.priority));
}

function draftsFor(
  options: QueueAddOptions,
  doc: QueueDocument,
  projectDir: string,
  fetched: QueueDraft[],
  taken: (name: string) => boolean,
): { drafts: QueueDraft[]; alreadyQueued: string[] } {
  const source = options.source;
  const used = { ...(doc.issued_ids ? { issued: doc.issued_ids } : {}), taken };
  if (source.kind === 'task') return { drafts: [taskDraft(source.line, doc.items, options.priority, used)], alreadyQueued: [] };
  if (source.kind === 'prd') return prdDrafts(source.file, projectDir, doc.items, options.priority, used);
  // An issue's id is its number: when an earlier item of that issue left its branch or worktree, the new one starts on a fresh name.
  const drafts = fetched.map((draft) => {
    const fresh = freshPlaceName(draft.id, taken);
    return fresh === undefined ? draft : { ...draft, branch: itemBranch(fresh), worktree: itemWorktree(fresh) };
  });
  return { drafts, alreadyQueued: [] };
}

function withOptions(draft: QueueDraft, options: QueueAddOptions): QueueDraft {
  const after = options.after.filter((id) => !draft.depends_on.includes(id));
  const next: QueueDraft = { ...draft, depends_on: [...draft.depends_on, ...after] };
  if (options.verify !== undefined && next.verify === undefined) next.verify = options.verify;
  return next;
}

/** Dependencies on issues the queue does not hold: they hold nothing back until they are added. */
function reportAbsentDependencies(added: readonly QueueItem[], items: readonly QueueItem[], notice: (message: string) => void): void {
  const ids = new Set(items.map((item) => item.id));
  for (const item of added) {
    for (const dep of item.depends_on.filter((id) => !ids.has(id))) {
      const issue = issueNumberOf(dep);
      const how = issue !== undefined ? `ralph queue add --github-issues ${issue}` : `ralph queue add`;
      notice(`${item.id} depends on ${dep}, which is not in the queue: it does not hold ${item.id} back unless it is added (${how})`);
    }
  }
}

export async function addToQueue(options: QueueAddOptions, deps: QueueAddDeps): Promise<QueueAddResult> {
  const fetched = options.source.kind === 'issues' || options.source.kind === 'filter' ? await githubDrafts(options, deps) : [];
  const now = new Date(deps.clock.now()).toISOString();
  const taken = await usedItemNames(createQueueGit(deps.runner), deps.paths);
  let items: QueueItem[] = [];
  const outcome = await updateQueue(
    deps.paths,
    (doc) => {
      const unknown = options.after.filter((id) => !doc.items.some((item) => item.id === id));
      if (unknown.length > 0) {
        throw new UsageError(`--after ${unknown.join(', ')}: no such item in the queue.`, 'See the ids with ralph queue list.');
      }
      const made = draftsFor(options, doc, deps.paths.project, fetched, taken);
      const change = addItems(
        doc,
        made.drafts.map((draft) => withOptions(draft, options)),
        now,
      );
      if (!change.ok) {
        const cycle = change.refusal.kind === 'cycle' ? formatCycle(change.refusal.cycle) : change.refusal.id;
        throw new RalphError(
          `Nothing was added: the new items would make a dependency cycle (${cycle}), and a cycle can never start.`,
          ExitCode.Usage,
          'Remove one of those dependencies (in the issue text, or --after) and add again.',
        );
      }
      items = change.doc.items;
      return { doc: change.doc, value: { ...change.value, duplicates: [...made.alreadyQueued, ...change.value.duplicates] } };
    },
    { onRecovered: (ids) => deps.notice(`${ids.join(', ')} went back to pending: the run that started them is gone`) },
  );
  for (const id of outcome.duplicates) deps.notice(`${id} is already in the queue; it was left as it is`);
  for (const item of outcome.added) {
    if (item.branch !== undefined && item.branch !== itemBranch(item.id)) {
      deps.notice(`${item.id}: ${itemBranch(item.id)} is left from an earlier item and stays as it is; this one works on ${item.branch}, made fresh`);
    }
  }
  reportAbsentDependencies(outcome.added, items, deps.notice);
  return outcome;
}
