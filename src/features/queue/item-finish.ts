import { decideItemOutcome, type LoopEnd } from '../../core/queue/item-outcome.js';
import type { QueueDocument, QueueItem } from '../../core/queue/queue-item.js';
import { finishItem, type QueueChange } from '../../core/queue/queue-ops.js';
import { annotateResult } from '../../core/queue/queue-release.js';
import { isoTimestamp } from '../../core/time-format.js';
import { errorMessage, ExitCode, RalphError } from '../../errors.js';
import type { RalphPaths } from '../../state/paths.js';
import { updateQueue } from '../../state/queue-store.js';
import { commitItemWork, removeItemWorktree, type CommitOutcome } from './item-commit.js';
import { checkItemFolder } from './own-worktree.js';
import { openPullRequest, type PullRequestPlan } from './item-pull-request.js';
import type { QueueGit } from './queue-git.js';
import type { GithubClient } from './github/github-client.js';

/**
 * What happens when an item's loop has ended on its own: its work is
 * committed on its branch, the queue records the outcome, `--pr` pushes the
 * branch and opens the pull request, and the worktree goes (unless removing
 * it would lose something).
 */
export interface FinishContext {
  paths: RalphPaths;
  git: QueueGit;
  now(): number;
  notice(message: string): void;
  pr?: PullRequestPlan;
  /** Set with --comment-progress: the issue of a GitHub item hears when its loop starts and ends. */
  progressComments?: GithubClient;
  /** With --follow-checks: a completed item's pull request is followed before the item counts as completed. */
  followChecks?: boolean;
}

export interface FinishedItem {
  item: QueueItem;
  /** The pull request could not be opened (the item itself completed). */
  prFailed: boolean;
  /** With --follow-checks: the pull request whose checks are followed now; the item stays running until then. */
  following?: { number: number; url: string; commit: string };
}

/** Applies one change to the item under the queue's lock. */
export async function changeItem(paths: RalphPaths, id: string, change: (doc: QueueDocument) => QueueChange<QueueItem>): Promise<QueueItem> {
  return updateQueue(paths, (doc) => {
    const next = change(doc);
    if (!next.ok) throw new RalphError(`${id} is no longer in the queue; its result is not recorded.`, ExitCode.RuntimeError, 'It was removed while it ran.');
    return { doc: next.doc, value: next.value };
  });
}

const costText = (result: QueueItem['result']): string =>
  result?.cost !== undefined ? `, $${result.cost.toFixed(4)}${result.cost_estimated ? ' (estimated)' : ''}` : '';

export async function finishRunItem(ctx: FinishContext, item: QueueItem, dir: string, end: LoopEnd): Promise<FinishedItem> {
  const branch = item.branch ?? `ralph/${item.id}`;
  const outcome = decideItemOutcome(end, branch);
  // No worktree: the item never got one (its making failed), so there is nothing to commit or remove.
  // A folder that is no longer this repository's worktree (a link put there while the loop ran) is never committed in.
  const folder = await checkItemFolder(ctx.git, ctx.paths.project, dir, item.worktree ?? dir);
  const commit: CommitOutcome =
    folder.kind === 'own'
      ? await commitItemWork(ctx.git, dir, item)
      : folder.kind === 'absent'
        ? { kind: 'nothing' }
        : { kind: 'failed', error: folder.kind === 'foreign' ? folder.why : `${item.worktree ?? dir} is no longer a git worktree` };
  let commitId: string | undefined;
  if (commit.kind === 'committed') commitId = commit.commit;
  if (commit.kind === 'failed') {
    ctx.notice(`${item.id}: its work could not be committed on ${branch} (${commit.error}); the worktree is kept.`);
    if (outcome.state === 'completed') {
      outcome.state = 'failed';
      outcome.result.error = `its work could not be committed: ${commit.error}`;
    }
  }
  const committed = commitId ? `; committed ${commitId.slice(0, 12)} on ${branch}` : '';
  if (ctx.pr && ctx.followChecks && outcome.state === 'completed') {
    // The item stays running: it is completed only once the pull request's checks pass.
    const recorded = await changeItem(ctx.paths, item.id, (doc) => annotateResult(doc, item.id, outcome.result));
    ctx.notice(`${item.id}: its loop completed (${recorded.result?.iterations ?? 0} iterations${costText(recorded.result)})${committed}`);
    const proposed = await proposeChange(ctx, recorded, commitId);
    if (proposed.opened) {
      const head = (await ctx.git.run(['rev-parse', branch], ctx.paths.project)).stdout.trim();
      return { item: proposed.item, prFailed: false, following: { ...proposed.opened, commit: head } };
    }
    const settled = await settleItem(ctx, proposed.item, dir, 'completed', proposed.item.result ?? outcome.result, folder.kind !== 'absent');
    return { item: settled, prFailed: proposed.prFailed };
  }
  let finished = await changeItem(ctx.paths, item.id, (doc) => finishItem(doc, item.id, outcome.state, outcome.result, isoTimestamp(ctx.now())));
  const how = outcome.state === 'completed' ? 'completed' : `failed: ${outcome.result.error ?? 'unknown'}`;
  ctx.notice(`${item.id} ${how} (${finished.result?.iterations ?? 0} iterations${costText(finished.result)})${committed}`);

  let prFailed = false;
  if (ctx.pr && finished.state === 'completed') ({ item: finished, prFailed } = await proposeChange(ctx, finished, commitId));
  await afterFinish(ctx, finished, dir, folder.kind !== 'absent' && commit.kind !== 'failed');
  return { item: finished, prFailed };
}

/** `--pr`: pushes the branch and opens its pull request, recording its address (or why there is none) on the item. */
async function proposeChange(
  ctx: FinishContext,
  item: QueueItem,
  commitId: string | undefined,
): Promise<{ item: QueueItem; prFailed: boolean; opened?: { number: number; url: string } }> {
  const plan = ctx.pr as PullRequestPlan;
  const branch = item.branch ?? `ralph/${item.id}`;
  const pr = await openPullRequest(ctx.git, ctx.paths.project, item, plan, commitId);
  if (pr.kind === 'opened') {
    const annotated = await changeItem(ctx.paths, item.id, (doc) => annotateResult(doc, item.id, { pr_url: pr.url }));
    ctx.notice(`${item.id}: pull request ${pr.url}`);
    const issue = item.github?.number;
    if (plan.autoClose && issue !== undefined) await tryGithub(ctx, item, () => plan.client.closeIssue(issue), 'close the issue');
    return { item: annotated, prFailed: false, opened: { number: pr.number, url: pr.url } };
  }
  if (pr.kind === 'nothing') {
    ctx.notice(`${item.id}: no pull request: ${pr.why}.`);
    return { item, prFailed: false };
  }
  const annotated = await changeItem(ctx.paths, item.id, (doc) => annotateResult(doc, item.id, { error: `pull request: ${pr.error}` }));
  ctx.notice(`${item.id}: no pull request: ${pr.error}. The branch ${branch} is kept.`);
  return { item: annotated, prFailed: true };
}

/**
 * Records the final state of an item whose pull request was followed (or
 * could not be), then what every finished item gets: the comment on its
 * issue and its worktree removed.
 */
export async function settleItem(
  ctx: FinishContext,
  item: QueueItem,
  dir: string,
  state: 'completed' | 'failed',
  result: NonNullable<QueueItem['result']>,
  hasWorktree: boolean,
): Promise<QueueItem> {
  const finished = await changeItem(ctx.paths, item.id, (doc) => finishItem(doc, item.id, state, result, isoTimestamp(ctx.now())));
  const how = state === 'completed' ? 'completed' : `failed: ${result.error ?? 'unknown'}`;
  ctx.notice(`${item.id} ${how} (${finished.result?.iterations ?? 0} iterations${costText(finished.result)})`);
  await afterFinish(ctx, finished, dir, hasWorktree);
  return finished;
}

async function afterFinish(ctx: FinishContext, finished: QueueItem, dir: string, removeWorktree: boolean): Promise<void> {
  const branch = finished.branch ?? `ralph/${finished.id}`;
  const commenter = ctx.progressComments;
  const issue = finished.github?.number;
  if (commenter && issue !== undefined) {
    const result = finished.result;
    const body =
      finished.state === 'completed'
        ? `Ralph finished this issue on \`${branch}\`${result?.pr_url ? `: ${result.pr_url}` : '.'} (${result?.iterations ?? 0} iterations${costText(result)}).`
        : `Ralph stopped working on this issue: ${result?.error ?? 'the loop failed'}. The work so far is on \`${branch}\`.`;
    await tryGithub(ctx, finished, () => commenter.commentOnIssue(issue, body), 'comment on the issue');
  }
  if (removeWorktree) {
    const removed = await removeItemWorktree(ctx.git, ctx.paths.project, dir);
    if (removed.kind === 'kept') ctx.notice(`${finished.id}: its worktree ${finished.worktree ?? dir} is kept: ${removed.why}.`);
  }
}

/** A comment or a close that fails is said, never the end of the run: the work itself is done. */
export async function tryGithub(ctx: Pick<FinishContext, 'notice'>, item: QueueItem, action: () => Promise<unknown>, what: string): Promise<void> {
  try {
    await action();
  } catch (error) {
    ctx.notice(`${item.id}: could not ${what} on GitHub: ${errorMessage(error)}`);
  }
}
