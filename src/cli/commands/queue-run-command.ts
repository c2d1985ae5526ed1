import { readQueue, currentOwner } from '../../state/queue-store.js';
import { ExitCode, UsageError } from '../../errors.js';
import { createGithubClient, type GithubClient } from '../../features/queue/github/github-client.js';
import { resolveGithubTarget } from '../../features/queue/github/github-target.js';
import { resolveGithubToken } from '../../features/queue/github/github-token.js';
import { pushRemoteFor, type PullRequestPlan } from '../../features/queue/item-pull-request.js';
import { createQueueGit, readStartingPoint } from '../../features/queue/queue-git.js';
import { runQueue, type QueueRunReport } from '../../features/queue/queue-run.js';
import type { FollowPlan } from '../../features/queue/follow-pull-request.js';
import { pushTokenWarning } from '../../core/queue/follow/push-token.js';
import { describeFollow } from '../../core/queue/follow/follow-record.js';
import { excludeWorktrees } from '../../features/queue/worktree-exclude.js';
import { startRunGuard } from '../../infra/run-guard.js';
import { SHARED_RATE_ENV } from '../../state/shared-rate.js';
import { ralphPaths } from '../../state/paths.js';
import { acquireProjectLock } from '../../state/project-lock.js';
import { createDefaultDeps } from '../deps.js';
import { configFlagsToArgv } from '../forward-flags.js';
import { loadProjectConfig } from '../load-project-config.js';
import type { QueueRunArgs } from '../queue-args.js';

/**
 * `ralph queue run`: checks everything that can be wrong before any loop
 * starts (the repository, the flags, GitHub for --pr), holds the project's
 * lock so no other loop or queue run works here meanwhile, and stops every
 * loop on Ctrl+C. Notices and the loops' output go to stderr (each line
 * prefixed with its item), the summary to stdout.
 */
const notice = (message: string): void => {
  process.stderr.write(`ralph queue: ${message}\n`);
};

async function githubFor(
  args: QueueRunArgs,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ client: GithubClient; slug: string; tokenWarning: string | undefined } | undefined> {
  if (!args.pr && !args.commentProgress) return undefined;
  const { runner } = createDefaultDeps();
  const target = await resolveGithubTarget({ ...(args.repo !== undefined ? { repoFlag: args.repo } : {}), env, runner, cwd });
  const token = await resolveGithubToken(env, runner, cwd);
  return {
    client: createGithubClient(target, token.value, { warn: notice }),
    slug: target.slug,
    tokenWarning: pushTokenWarning(env, token.source, token.value.slice(0, 4)),
  };
}

/** Each followed item's last round and checks, for the summary. */
function followLines(paths: ReturnType<typeof ralphPaths>, report: QueueRunReport): string[] {
  const ran = new Set([...report.completed, ...report.failed]);
  return readQueue(paths)
    .items.filter((item) => item.follow !== undefined && ran.has(item.id))
    .map((item) => `followed ${item.id}: ${describeFollow(item.follow as NonNullable<typeof item.follow>)}`);
}

function summary(report: QueueRunReport, followed: readonly string[] = []): string {
  const lines = [
    `completed: ${report.completed.join(' ') || '-'}`,
    `failed: ${report.failed.join(' ') || '-'}`,
    ...(report.released.length > 0 ? [`back to pending: ${report.released.join(' ')}`] : []),
    ...(report.merge
      ? [
          `merged: ${report.merge.merged.join(' ') || '-'}`,
          ...(report.merge.unmerged.length > 0 ? [`not merged: ${report.merge.unmerged.map((u) => u.id).join(' ')}`] : []),
        ]
      : []),
    ...followed,
  ];
  return `${lines.join('\n')}\n`;
}

export async function runQueueRunCommand(args: QueueRunArgs, cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const paths = ralphPaths(cwd);
  const { runner, clock } = createDefaultDeps();
  const git = createQueueGit(runner);
  const start = await readStartingPoint(git, paths.project);
  if (args.pr && start.branch === undefined) {
    throw new UsageError(
      '--pr needs a branch to open pull requests against, and HEAD is detached.',
      'Check out the base branch (git switch main), then run again.',
    );
  }
  const { maxCostUsd: _shared, ...loopFlags } = args.flags;
  // flag > environment > .ralphrc: the same layering a single loop uses for its cap.
  const config = loadProjectConfig(paths, env, args.flags).config;
  const doc = readQueue(paths);
  if (!doc.items.some((item) => item.state === 'pending' || item.state === 'running')) {
    notice('nothing to run: no pending items (ralph queue add puts work in the queue)');
    return ExitCode.Completed;
  }
  const github = await githubFor(args, env, paths.project);
  let pr: PullRequestPlan | undefined;
  if (args.pr && github && start.branch !== undefined) {
    const remote = await pushRemoteFor(git, paths.project, github.slug);
    pr = { client: github.client, remote, base: start.branch, draft: args.draftPr, autoClose: args.autoClose };
  }
  const follow: FollowPlan | undefined =
    args.follow && github
      ? { client: github.client, ...args.follow, ...(github.tokenWarning !== undefined ? { tokenWarning: github.tokenWarning } : {}) }
      : undefined;

  const lock = await acquireProjectLock(paths, (error) => {
    notice(`the project lock was lost (${error.message}); stopping`);
    abort.abort();
  });
  const abort = new AbortController();
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    signals += 1;
    if (signals === 1) {
      process.stderr.write(`\n${signal} received: stopping every loop (Ctrl+C again to force)...\n`);
      abort.abort(signal);
      return;
    }
    if (signal === 'SIGINT') process.exit(ExitCode.Sigint);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const guard = await startRunGuard(paths.runFile, { warn: notice });
  try {
    await excludeWorktrees(git, paths.project, notice);
    const report = await runQueue(
      {
        parallel: args.parallel,
        loopArgs: configFlagsToArgv(loopFlags),
        maxCostUsd: config.maxCostUsd,
        merge: args.merge,
        ...(pr ? { pr } : {}),
        ...(follow ? { follow } : {}),
        ...(args.commentProgress && github ? { progressComments: github.client } : {}),
        start,
        owner: currentOwner(),
      },
      {
        paths,
        git,
        clock,
        // The loops count their calls against one hourly budget: this project's rate-limit state.
        env: { ...env, [SHARED_RATE_ENV]: paths.rateLimit },
        interrupt: abort.signal,
        notice,
        itemOutput: (id, line) => process.stderr.write(`[${id}] ${line}\n`),
      },
    );
    process.stdout.write(summary(report, follow ? followLines(paths, report) : []));
    return report.exitCode;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    guard.stop();
    await lock.release();
  }
}
