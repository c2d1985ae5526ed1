import { formatRepo, parseRemoteUrl } from '../../core/github-remote.js';
import type { QueueItem } from '../../core/queue/queue-item.js';
import { errorMessage } from '../../errors.js';
import type { GithubClient } from './github/github-client.js';
import { gitFailure, type QueueGit } from './queue-git.js';

/**
 * `--pr`: a completed item's branch is pushed to the repository's remote and
 * a pull request opened against the branch the run started from; a GitHub
 * item's pull request closes its issue when merged (`Closes #N`).
 */
export interface PullRequestPlan {
  client: GithubClient;
  /** The remote pushes go to. */
  remote: string;
  base: string;
  draft: boolean;
  autoClose: boolean;
}

export type PullRequestOutcome = { kind: 'opened'; number: number; url: string } | { kind: 'nothing'; why: string } | { kind: 'failed'; error: string };

/** The remote whose URL names `slug` (owner/name), else `origin`. */
export async function pushRemoteFor(git: QueueGit, project: string, slug: string): Promise<string> {
  const listed = await git.run(['remote', '-v'], project);
  for (const line of listed.stdout.split('\n')) {
    const [name, url] = line.split(/\s+/);
    const repo = url ? parseRemoteUrl(url) : undefined;
    if (name && repo && formatRepo(repo).toLowerCase() === slug.toLowerCase()) return name;
  }
  return 'origin';
}

export function pullRequestText(item: QueueItem, commit: string | undefined): { title: string; body: string } {
  const source = item.github ? `GitHub issue #${item.github.number}` : item.source === 'prd' ? `a task of ${item.prd_file ?? 'the PRD'}` : 'a queued task';
  const result = item.result;
  const facts = [
    `Queue item: ${item.id} (${source})`,
    result?.iterations !== undefined ? `Loop iterations: ${result.iterations}` : undefined,
    result?.cost !== undefined ? `Agent cost: $${result.cost.toFixed(4)}${result.cost_estimated ? ' (estimated)' : ''}` : undefined,
    result?.exit_reason ? `Ended: ${result.exit_reason}` : undefined,
    commit ? `Commit: ${commit}` : undefined,
  ].filter((line): line is string => line !== undefined);
  return { title: item.title, body: `Work done by a Ralph loop on \`${item.branch ?? `ralph/${item.id}`}\`.\n\n${facts.map((f) => `- ${f}`).join('\n')}\n` };
}

export async function openPullRequest(
  git: QueueGit,
  project: string,
  item: QueueItem,
  plan: PullRequestPlan,
  commit: string | undefined,
): Promise<PullRequestOutcome> {
  const branch = item.branch ?? `ralph/${item.id}`;
  const ahead = await git.run(['rev-list', '--count', `${plan.base}..${branch}`], project);
  if (ahead.exitCode === 0 && ahead.stdout.trim() === '0') return { kind: 'nothing', why: `${branch} has no commits that ${plan.base} lacks` };
  const pushed = await git.run(['push', '-q', plan.remote, `refs/heads/${branch}:refs/heads/${branch}`], project);
  if (pushed.exitCode !== 0) return { kind: 'failed', error: `git push to ${plan.remote} failed: ${gitFailure(pushed)}` };
  const text = pullRequestText(item, commit);
  try {
    const pr = await plan.client.createPullRequest({
      head: branch,
      base: plan.base,
      title: text.title,
      body: text.body,
      ...(item.github ? { closes: item.github.number } : {}),
      ...(plan.draft ? { draft: true } : {}),
    });
    return { kind: 'opened', number: pr.number, url: pr.url };
  } catch (error) {
    // An item resumed after Ctrl+C (while its checks were followed, say) already has its pull request: the push updated it.
    const open = await plan.client.findOpenPullRequest(branch).catch(() => undefined);
    return open ? { kind: 'opened', number: open.number, url: open.url } : { kind: 'failed', error: errorMessage(error) };
  }
}
