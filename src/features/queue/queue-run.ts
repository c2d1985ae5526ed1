import { join } from 'node:path';
import type { LoopEnd } from '../../core/queue/item-outcome.js';
import { budgetForNewLoop, budgetReached, type BudgetView } from '../../core/queue/queue-budget.js';
import type { QueueItem, QueueOwner } from '../../core/queue/queue-item.js';
import { claimNext } from '../../core/queue/queue-ops.js';
import { releaseItem } from '../../core/queue/queue-release.js';
import { isoTimestamp } from '../../core/time-format.js';
import { errorMessage, ExitCode, RalphError } from '../../errors.js';
import type { Clock } from '../../ports.js';
import type { RalphPaths } from '../../state/paths.js';
import { updateQueue } from '../../state/queue-store.js';
import type { GithubClient } from './github/github-client.js';
import { followPullRequest, type FollowOutcome, type FollowPlan } from './follow-pull-request.js';
import { changeItem, finishRunItem, settleItem, tryGithub, type FinishContext, type FinishedItem } from './item-finish.js';
import { runItemLoop } from './item-loop.js';
import type { PullRequestPlan } from './item-pull-request.js';
import { prepareItemWorktree } from './item-worktree.js';
import { liveLockHolder, waitForPreviousLoop } from './previous-loop.js';
import { mergeBack, type MergeReport } from './merge-back.js';
import type { QueueGit, StartingPoint } from './queue-git.js';
import { readRunningLoop } from './running-loops.js';

/**
 * `ralph queue run`: takes ready items (by priority, then in order) up to
 * `parallel` at once, runs each as a loop in its own worktree, and records
 * how each ended. Stops when nothing is ready and nothing runs, when the
 * shared --max-cost is spent, or on Ctrl+C — then every loop is stopped and
 * its item goes back to pending, worktree and branch kept, for the next run.
 */
export interface QueueRunPlan {
  parallel: number;
  /** Loop flags for every item's `ralph run`. */
  loopArgs: readonly string[];
  /** One budget for all loops of the run; 0: none. */
  maxCostUsd: number;
  merge: boolean;
  pr?: PullRequestPlan;
  /** With --pr: follow each pull request's checks (and reviews) before the item counts as completed. */
  follow?: FollowPlan;
  progressComments?: GithubClient;
  start: StartingPoint;
  owner: QueueOwner;
}

export interface QueueRunDeps {
  paths: RalphPaths;
  git: QueueGit;
  clock: Clock;
  /** The environment of the items' loops. */
  env: NodeJS.ProcessEnv;
  /** Ctrl+C: every loop stops, the run ends with 130. */
  interrupt: AbortSignal;
  notice(message: string): void;
  /** A line the item's loop printed. */
  itemOutput(id: string, line: string): void;
  /** How often the running loops' costs are read against the budget. */
  budgetPollMs?: number;
  /** How long an item waits for an earlier run's loop to leave its worktree. */
  previousLoopWaitMs?: number;
}

export interface QueueRunReport {
  completed: string[];
  failed: string[];
  /** Put back to pending: stopped by Ctrl+C or the budget, or not started (see notStarted). */
  released: string[];
  /** Put back to pending without starting: an earlier run's loop still held the item's worktree. */
  notStarted: string[];
  prFailed: string[];
  merge?: MergeReport;
  budgetReached: boolean;
  interrupted: boolean;
  exitCode: number;
}

/** How long an item waits for the loop an earlier run left in its worktree to end (see previous-loop.ts). */
const PREVIOUS_LOOP_WAIT_MS = 30_000;

interface Ended {
  id: string;
  end: LoopEnd;
  /** The loop never started: an earlier run's loop still held the worktree. */
  busy?: string;
  /** The item's pull request was followed: how that ended. */
  followed?: FollowOutcome;
}

interface Running {
  item: QueueItem;
  dir: string;
  stop: AbortController;
  done: Promise<Ended>;
  /** What the item spends now, for the shared budget, when it is not simply its worktree's loop. */
  costNow?: () => number;
}

const onRecovered =
  (notice: (m: string) => void) =>
  (ids: string[]): void =>
    notice(`${ids.join(', ')} went back to pending: the run that started them is gone`);

async function claim(deps: QueueRunDeps, owner: QueueOwner): Promise<QueueItem | undefined> {
  const value = await updateQueue(
    deps.paths,
    (doc) => {
      const change = claimNext(doc, owner, isoTimestamp(deps.clock.now()));
      if (!change.ok) {
        const cycle = change.refusal.kind === 'cycle' ? change.refusal.cycle.join(' → ') : change.refusal.kind;
        throw new RalphError(
          `The queue's dependencies form a cycle: ${cycle}.`,
          ExitCode.Usage,
          'Remove one of these items (ralph queue remove ID), then run again.',
        );
      }
      return { doc: change.doc, value: change.value };
    },
    { onRecovered: onRecovered(deps.notice) },
  );
  for (const skipped of value.skipped) deps.notice(`${skipped.id} skipped: ${skipped.reason}`);
  return value.item;
}

export async function runQueue(plan: QueueRunPlan, deps: QueueRunDeps): Promise<QueueRunReport> {
  const report: QueueRunReport = {
    completed: [],
    failed: [],
    released: [],
    notStarted: [],
    prFailed: [],
    budgetReached: false,
    interrupted: false,
    exitCode: ExitCode.Completed,
  };
  const running = new Map<string, Running>();
  const budget: BudgetView = { maxCostUsd: plan.maxCostUsd, finishedUsd: 0, runningUsd: [] };
  const finishCtx: FinishContext = {
    paths: deps.paths,
    git: deps.git,
    now: () => deps.clock.now(),
    notice: deps.notice,
    ...(plan.pr ? { pr: plan.pr } : {}),
    ...(plan.progressComments ? { progressComments: plan.progressComments } : {}),
    ...(plan.follow ? { followChecks: true } : {}),
  };
  const mergeQueue: { id: string; branch: string; title: string }[] = [];
  const stopAll = (): void => {
    for (const loop of running.values()) loop.stop.abort();
  };
  const onInterrupt = (): void => {
    report.interrupted = true;
    deps.notice(`stopping ${running.size} running loop${running.size === 1 ? '' : 's'}; their worktrees and branches are kept`);
    stopAll();
  };
  deps.interrupt.addEventListener('abort', onInterrupt, { once: true });
  if (deps.interrupt.aborted) onInterrupt();
  const watchBudget = (): void => {
    if (plan.maxCostUsd <= 0 || report.budgetReached) return;
    budget.runningUsd = [...running.values()].map((loop) => runningCost(deps, loop));
    if (!budgetReached(budget)) return;
    report.budgetReached = true;
    deps.notice(`the shared --max-cost of $${plan.maxCostUsd.toFixed(2)} is spent; stopping every loop`);
    stopAll();
  };
  const timer = setInterval(watchBudget, deps.budgetPollMs ?? 500);
  try {
    for (;;) {
      while (running.size < plan.parallel && !report.interrupted && !report.budgetReached) {
        const left = budgetForNewLoop({ ...budget, runningUsd: [...running.values()].map((l) => runningCost(deps, l)) });
        if (left !== undefined && left <= 0) {
          report.budgetReached = true;
          break;
        }
        const item = await claim(deps, plan.owner);
        if (!item) break;
        const loop = await launch(plan, deps, item, left, finishCtx);
        running.set(item.id, loop);
        // Ctrl+C or the budget may have come while it was being started.
        if (report.interrupted || report.budgetReached) loop.stop.abort();
      }
      if (running.size === 0) break;
      const ended = await Promise.race([...running.values()].map((loop) => loop.done));
      const { id, end, busy } = ended;
      const loop = running.get(id) as Running;
      running.delete(id);
      budget.finishedUsd += end.costUsd ?? 0;
      // A loop that completed just before the stop reached it keeps its result.
      if (loop.stop.signal.aborted && end.exitCode !== ExitCode.Completed) {
        const why = report.interrupted ? 'interrupted by Ctrl+C' : "stopped: the run's shared --max-cost was spent";
        await changeItem(deps.paths, id, (doc) => releaseItem(doc, id, why));
        report.released.push(id);
        deps.notice(`${id} went back to pending (${why}); its worktree ${loop.item.worktree ?? ''} and branch ${loop.item.branch ?? ''} are kept`);
        continue;
      }
      // A lock is never the item's failure: it waits for a later run.
      if (busy !== undefined) {
        const why = `not started: ${busy}`;
        await changeItem(deps.paths, id, (doc) => releaseItem(doc, id, why));
        report.released.push(id);
        report.notStarted.push(id);
        deps.notice(`${id} went back to pending (${why}); run the queue again once that loop has ended`);
        continue;
      }
      const finished: FinishedItem = ended.followed
        ? { item: await settleItem(finishCtx, loop.item, loop.dir, ended.followed.state, ended.followed.result, true), prFailed: false }
        : await finishRunItem(finishCtx, loop.item, loop.dir, end);
      if (finished.following && plan.follow && plan.pr) {
        // The item stays running while its pull request is followed; the other items go on meanwhile.
        const following = startFollow(plan, deps, budget, running, finished.item, loop.dir, finished.following);
        running.set(id, following);
        if (report.interrupted || report.budgetReached) following.stop.abort();
        continue;
      }
      (finished.item.state === 'completed' ? report.completed : report.failed).push(id);
      if (finished.prFailed) report.prFailed.push(id);
      if (finished.item.state === 'completed' && plan.merge) mergeQueue.push({ id, branch: finished.item.branch ?? `ralph/${id}`, title: finished.item.title });
      watchBudget();
    }
  } finally {
    clearInterval(timer);
    deps.interrupt.removeEventListener('abort', onInterrupt);
    stopAll();
  }
  if (plan.merge && !report.interrupted) {
    report.merge = await mergeBack(deps.git, deps.paths.project, plan.start.branch, mergeQueue);
    for (const id of report.merge.merged) deps.notice(`${id}: merged into ${plan.start.branch ?? 'HEAD'}`);
    for (const kept of report.merge.unmerged) deps.notice(`${kept.id}: not merged (${kept.why}); ${kept.branch} is kept`);
  }
  report.exitCode = report.interrupted
    ? ExitCode.Sigint
    : report.budgetReached
      ? ExitCode.LimitReached
      : report.failed.length > 0 || report.notStarted.length > 0 || report.prFailed.length > 0 || (report.merge?.unmerged.length ?? 0) > 0
        ? ExitCode.RuntimeError
        : ExitCode.Completed;
  return report;
}

async function launch(plan: QueueRunPlan, deps: QueueRunDeps, item: QueueItem, maxCost: number | undefined, ctx: FinishContext): Promise<Running> {
  const stop = new AbortController();
  let dir = join(deps.paths.project, item.worktree ?? `.ralph/worktrees/${item.id}`);
  const failed = (error: unknown): { id: string; end: LoopEnd } => {
    const hint = error instanceof RalphError && error.hint ? ` ${error.hint}` : '';
    return { id: item.id, end: { exitCode: undefined, failure: `${errorMessage(error)}${hint}` } };
  };
  let done: Promise<Ended>;
  try {
    const place = await prepareItemWorktree(deps.git, deps.paths.project, item, plan.start.commit);
    dir = place.dir;
    deps.notice(
      `${item.id} started in ${item.worktree ?? dir} on ${place.branch}${place.reused ? ' (its earlier worktree, with its work)' : ''}: ${item.title}`,
    );
    const commenter = plan.progressComments;
    const issue = item.github?.number;
    if (commenter && issue !== undefined) {
      await tryGithub(
        ctx,
        item,
        () => commenter.commentOnIssue(issue, `Ralph started working on this issue on the branch \`${place.branch}\`.`),
        'comment on the issue',
      );
    }
    const worktree = dir;
    done = waitForPreviousLoop(worktree, {
      signal: stop.signal,
      timeoutMs: deps.previousLoopWaitMs ?? PREVIOUS_LOOP_WAIT_MS,
      onWait: (why) => deps.notice(`${item.id}: ${why}; waiting for it to end before its loop starts`),
    })
      .then(async (previous): Promise<Ended> => {
        if (previous.kind === 'busy') return { id: item.id, end: { exitCode: undefined }, busy: previous.why };
        const end = await runItemLoop({
          item,
          dir: worktree,
          loopArgs: plan.loopArgs,
          ...(maxCost !== undefined ? { maxCostUsd: maxCost } : {}),
          env: deps.env,
          signal: stop.signal,
          onOutput: (line) => deps.itemOutput(item.id, line),
        });
        // A loop that could not take its worktree's lock (taken since the wait above) ends with exit 1 at once: never the item's failure either.
        const holder = end.exitCode === ExitCode.RuntimeError ? liveLockHolder(worktree) : undefined;
        return holder === undefined ? { id: item.id, end } : { id: item.id, end, busy: holder };
      })
      .catch((error: unknown) => failed(error));
  } catch (error) {
    deps.notice(`${item.id}: ${errorMessage(error)}`);
    done = Promise.resolve(failed(error));
  }
  return { item, dir, stop, done };
}

function runningCost(deps: QueueRunDeps, loop: Running): number {
  return loop.costNow ? loop.costNow() : readRunningLoop(deps.paths.project, loop.item).costUsd;
}

/** Follows an item's pull request as one more running entry, so Ctrl+C and the budget stop it like a loop. */
function startFollow(
  plan: QueueRunPlan,
  deps: QueueRunDeps,
  budget: BudgetView,
  running: ReadonlyMap<string, Running>,
  item: QueueItem,
  dir: string,
  pr: NonNullable<FinishedItem['following']>,
): Running {
  const stop = new AbortController();
  // The first loop's cost is counted already; only a follow-up round's loop spends now.
  let roundRunning = false;
  const costNow = (): number => (roundRunning ? readRunningLoop(deps.paths.project, item).costUsd : 0);
  const done = followPullRequest({
    plan: plan.follow as FollowPlan,
    item,
    dir,
    pr,
    remote: (plan.pr as PullRequestPlan).remote,
    paths: deps.paths,
    git: deps.git,
    clock: deps.clock,
    signal: stop.signal,
    notice: deps.notice,
    runLoop: async (round) => {
      const others = [...running.values()].filter((loop) => loop.item.id !== item.id).map((loop) => runningCost(deps, loop));
      const left = budgetForNewLoop({ ...budget, runningUsd: others });
      roundRunning = true;
      try {
        return await runItemLoop({
          ...round,
          loopArgs: plan.loopArgs,
          ...(left !== undefined ? { maxCostUsd: Math.max(0, left) } : {}),
          env: deps.env,
          onOutput: (line) => deps.itemOutput(item.id, line),
        });
      } finally {
        roundRunning = false;
      }
    },
  }).then((followed): Ended => ({
    id: item.id,
    end: {
      exitCode: followed.state === 'completed' ? ExitCode.Completed : followed.stopped ? undefined : ExitCode.RuntimeError,
      costUsd: followed.roundsCostUsd,
    },
    followed,
  }));
  return { item, dir, stop, done, costNow };
}
