import { randomBytes } from 'node:crypto';
import { describeChecks, type CiCheck } from '../../core/queue/follow/ci-checks.js';
import { followUpTask } from '../../core/queue/follow/follow-prompt.js';
import { recordFollow, type FollowState, type QueueFollow } from '../../core/queue/follow/follow-record.js';
import type { ReviewFeedback } from '../../core/queue/follow/review-feedback.js';
import { testTampering } from '../../core/queue/follow/test-tampering.js';
import type { LoopEnd } from '../../core/queue/item-outcome.js';
import type { QueueItem, QueueResult } from '../../core/queue/queue-item.js';
import { isoTimestamp } from '../../core/time-format.js';
import { errorMessage } from '../../errors.js';
import type { Clock } from '../../ports.js';
import type { RalphPaths } from '../../state/paths.js';
import type { GithubClient } from './github/github-client.js';
import { commitItemWork } from './item-commit.js';
import { changeItem } from './item-finish.js';
import type { ItemLoopInput } from './item-loop.js';
import { failedChecks, waitForChecks } from './follow-checks.js';
import { answerFeedback, readReviewFeedback, type ReviewState } from './follow-reviews.js';
import { gitFailure, type QueueGit } from './queue-git.js';

/**
 * `ralph queue run --pr --follow-checks`: after an item's pull request is
 * opened, its checks are waited for; when one fails (or, with
 * --follow-reviews, a reviewer asks for changes) the item's loop runs again
 * in its worktree with what was found in its task, the new commit is pushed
 * to the same branch — the same pull request — and the checks are waited for
 * again, up to --follow-max times. The item is completed once its checks
 * pass, failed naming the last failing check otherwise.
 */
export interface FollowPlan {
  client: GithubClient;
  intervalMs: number;
  timeoutMs: number;
  /** How many times the loop may run again. */
  maxRounds: number;
  reviews: boolean;
  /** Said before the checks are waited for: the push's token cannot start workflows. */
  tokenWarning?: string;
}

export interface FollowInput {
  plan: FollowPlan;
  /** The item as recorded when its pull request was opened (its first loop's result). */
  item: QueueItem;
  dir: string;
  pr: { number: number; url: string; commit: string };
  remote: string;
  paths: RalphPaths;
  git: QueueGit;
  clock: Clock;
  signal: AbortSignal;
  notice(message: string): void;
  /** Runs one follow-up round's loop (runItemLoop, with the rest of its input filled in by the queue run). */
  runLoop(input: Pick<ItemLoopInput, 'item' | 'dir' | 'taskText' | 'signal'>): Promise<LoopEnd>;
}

export interface FollowOutcome {
  state: 'completed' | 'failed';
  /** Stopped by Ctrl+C or the budget: the item goes back to pending. */
  stopped: boolean;
  /** The item's result, with the rounds' cost and iterations added. */
  result: QueueResult;
  /** What the follow-up rounds' loops cost (for the run's shared budget). */
  roundsCostUsd: number;
}

const shortSha = (sha: string): string => sha.slice(0, 12);

function failingNames(checks: readonly CiCheck[], feedback: readonly ReviewFeedback[]): string {
  const names = checks.filter((check) => check.state === 'failure').map((check) => check.name);
  if (feedback.length > 0) names.push(`${feedback.length} review comment${feedback.length === 1 ? '' : 's'}`);
  return names.join(', ');
}

export async function followPullRequest(input: FollowInput): Promise<FollowOutcome> {
  const { plan, item, pr } = input;
  const branch = item.branch ?? `ralph/${item.id}`;
  const base = item.result ?? {};
  const result: QueueResult = { ...base };
  let roundsCostUsd = 0;
  const tampering: string[] = [];
  const reviews: ReviewState = { since: isoTimestamp(input.clock.now()), handled: new Set() };
  let commit = pr.commit;
  let round = 1;
  let checks: CiCheck[] = [];
  const record = async (state: FollowState): Promise<void> => {
    const follow: QueueFollow = {
      round,
      max_rounds: plan.maxRounds + 1,
      pr_number: pr.number,
      commit,
      state,
      checks: checks.map((check) => ({ name: check.name, state: check.state })),
      ...(tampering.length > 0 ? { tampering: [...tampering] } : {}),
      updated_at: isoTimestamp(input.clock.now()),
    };
    await changeItem(input.paths, item.id, (doc) => recordFollow(doc, item.id, follow));
  };
  const end = (state: 'completed' | 'failed', error?: string, stopped = false): FollowOutcome => {
    if (error !== undefined) result.error = error;
    if (tampering.length > 0) result.test_tampering = [...tampering];
    return { state, stopped, result, roundsCostUsd };
  };
  const say = (message: string): void => input.notice(`${item.id}: ${message}`);
  // Ctrl+C or the budget: the item goes back to pending, and its record says the following stopped.
  const stopped = async (): Promise<FollowOutcome> => {
    await record('stopped').catch(() => undefined);
    return end('failed', 'stopped', true);
  };

  try {
    for (;;) {
      await record('waiting');
      if (plan.tokenWarning && round === 1) say(plan.tokenWarning);
      say(`round ${round}: waiting for the checks of ${shortSha(commit)} on ${pr.url}`);
      const waited = await waitForChecks({
        client: plan.client,
        clock: input.clock,
        sha: commit,
        intervalMs: plan.intervalMs,
        timeoutMs: plan.timeoutMs,
        signal: input.signal,
        notice: say,
        onChecks: async (seen) => {
          checks = [...seen];
          if (seen.length > 0) say(`round ${round}: ${describeChecks(seen)}`);
          await record('waiting');
        },
      });
      checks = waited.checks;
      if (waited.step === 'timed-out') {
        await record('timed-out');
        const pending = checks.filter((check) => check.state === 'pending').map((check) => check.name);
        return end(
          'failed',
          `checks still pending after ${Math.round(plan.timeoutMs / 60_000)} min on ${shortSha(commit)}: ${pending.join(', ') || 'none reported'}`,
        );
      }
      const feedback = plan.reviews ? await readReviewFeedback(plan.client, pr.number, reviews) : [];
      if (waited.step !== 'failed' && feedback.length === 0) {
        await record(waited.step === 'passed' ? 'passed' : 'no-checks');
        say(
          waited.step === 'passed'
            ? `round ${round}: every check passed on ${shortSha(commit)}`
            : `no checks reported for ${shortSha(commit)}; nothing to wait for`,
        );
        return end('completed');
      }
      const failing = failingNames(checks, feedback);
      if (round > plan.maxRounds) {
        await record('failed');
        return end('failed', `${failing} still failing after ${round} round${round === 1 ? '' : 's'} (--follow-max ${plan.maxRounds})`);
      }
      say(`round ${round}: ${failing} failed on ${shortSha(commit)}; running the loop again (round ${round + 1})`);
      round += 1;
      await record('fixing');
      const task = followUpTask({
        task: item.spec,
        round,
        maxRounds: plan.maxRounds + 1,
        commit,
        pullRequest: pr.url,
        failed: await failedChecks(plan.client, checks),
        feedback,
        nonce: randomBytes(6).toString('hex'),
      });
      const loop = await input.runLoop({ item, dir: input.dir, taskText: task, signal: input.signal });
      roundsCostUsd += loop.costUsd ?? 0;
      result.cost = (result.cost ?? 0) + (loop.costUsd ?? 0);
      result.iterations = (result.iterations ?? 0) + (loop.loops ?? 0);
      if (input.signal.aborted) return await stopped();
      if (loop.exitCode !== 0) {
        await record('failed');
        return end(
          'failed',
          `round ${round}'s loop ended with ${loop.failure ?? `exit code ${loop.exitCode ?? 'none (killed)'}`}${loop.exitReason ? ` (${loop.exitReason})` : ''}; ${failing} still failing`,
        );
      }
      const committed = await commitItemWork(
        input.git,
        input.dir,
        item,
        `ralph(${item.id}): round ${round}: ${failing}\n\nA follow-up round of queue item ${item.id} for its pull request ${pr.url}.\n`,
      );
      if (committed.kind !== 'committed') {
        await record('failed');
        return end(
          'failed',
          committed.kind === 'failed'
            ? `round ${round}'s work could not be committed: ${committed.error}`
            : `round ${round} changed nothing; ${failing} still failing`,
        );
      }
      // Plain git diff output whatever the user's git config says (external tools, prefixes, colour, renames).
      const diff = await input.git.run(
        ['diff', '--no-ext-diff', '--no-color', '--no-renames', '--src-prefix=a/', '--dst-prefix=b/', `${commit}..${committed.commit}`],
        input.paths.project,
      );
      if (diff.exitCode !== 0) say(`round ${round}'s diff could not be read to check its tests: ${gitFailure(diff)}`);
      for (const found of testTampering(diff.stdout)) {
        tampering.push(`round ${round}: ${found}`);
        say(`round ${round} ${found}: the pull request's reviewer should look at it`);
      }
      const pushed = await input.git.run(['push', '-q', input.remote, `refs/heads/${branch}:refs/heads/${branch}`], input.paths.project);
      if (pushed.exitCode !== 0) {
        await record('failed');
        return end('failed', `git push of round ${round} to ${input.remote} failed: ${gitFailure(pushed)}`);
      }
      commit = committed.commit;
      checks = [];
      say(`round ${round}: pushed ${shortSha(commit)} to ${branch}`);
      if (feedback.length > 0) await answerFeedback(plan.client, pr.number, feedback, commit, reviews, say);
    }
  } catch (error) {
    if (input.signal.aborted) return await stopped();
    await record('failed').catch(() => undefined);
    return end('failed', `following the pull request failed: ${errorMessage(error)}`);
  }
}
