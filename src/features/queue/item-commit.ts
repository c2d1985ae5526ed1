import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { QueueItem } from '../../core/queue/queue-item.js';
import { RALPH_IDENTITY } from '../../infra/git.js';
import { gitFailure, type QueueGit } from './queue-git.js';

/**
 * An item's work becomes one commit on its branch, by the user (their git
 * identity; Ralph's only when they have none). Ralph's own state in the
 * worktree's `.ralph/` — status, logs, counters — is never committed; the
 * user's files there (PROMPT.md, fix_plan.md, AGENT.md, specs/) are.
 */
const USER_RALPH_FILES = ['.ralph/PROMPT.md', '.ralph/fix_plan.md', '.ralph/AGENT.md', '.ralph/specs'];

export type CommitOutcome = { kind: 'committed'; commit: string } | { kind: 'nothing' } | { kind: 'failed'; error: string };

export function commitMessage(item: QueueItem): string {
  const closes = item.github ? `\n\nWork on ${item.github.repo}#${item.github.number} (${item.github.url}).` : '';
  return `ralph(${item.id}): ${item.title}\n\nThe work of queue item ${item.id}, done by a Ralph loop on ${item.branch ?? `ralph/${item.id}`}.${closes}\n`;
}

export async function commitItemWork(git: QueueGit, dir: string, item: QueueItem, message = commitMessage(item)): Promise<CommitOutcome> {
  const added = await git.run(['add', '-A', '--', '.'], dir);
  if (added.exitCode !== 0) return { kind: 'failed', error: gitFailure(added) };
  // Everything under .ralph/ comes out again (an exclude pathspec would fail where .gitignore already hides it).
  const unstaged = await git.run(['reset', '-q', '--', '.ralph'], dir);
  if (unstaged.exitCode !== 0) return { kind: 'failed', error: gitFailure(unstaged) };
  const tracked = (await git.run(['ls-files', '--', '.ralph'], dir)).stdout.split('\n');
  for (const path of USER_RALPH_FILES) {
    const known = existsSync(join(dir, path)) || tracked.some((file) => file === path || file.startsWith(`${path}/`));
    // A file the user's .gitignore excludes stays out, as `git add` would keep it.
    if (known) await git.run(['add', '-A', '--', path], dir);
  }
  const staged = await git.run(['diff', '--cached', '--quiet'], dir);
  if (staged.exitCode === 0) return { kind: 'nothing' };
  const email = await git.run(['config', 'user.email'], dir);
  const identity = email.exitCode === 0 && email.stdout.trim() !== '' ? {} : { identity: RALPH_IDENTITY };
  const commit = await git.run(['commit', '-q', '-m', message], dir, identity);
  if (commit.exitCode !== 0) return { kind: 'failed', error: gitFailure(commit) };
  return { kind: 'committed', commit: (await git.run(['rev-parse', 'HEAD'], dir)).stdout.trim() };
}

/** Changes in the worktree that are not Ralph's own state: removing the worktree would lose them. */
export async function unsavedChanges(git: QueueGit, dir: string): Promise<string[]> {
  const status = await git.run(['status', '--porcelain', '-z', '--untracked-files=all'], dir);
  if (status.exitCode !== 0) return [`git status failed: ${gitFailure(status)}`];
  const paths = status.stdout
    .split('\0')
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3));
  const ralphState = (path: string): boolean => path.startsWith('.ralph/') && !USER_RALPH_FILES.some((user) => path === user || path.startsWith(`${user}/`));
  return paths.filter((path) => !ralphState(path));
}

/**
 * Files git ignores in the worktree, other than Ralph's own state: `git worktree
 * remove --force` would delete them with it (an `.env`, `logs/`). A folder
 * ignored as a whole is named once, as `logs/`.
 */
export async function ignoredFiles(git: QueueGit, dir: string): Promise<string[] | { error: string }> {
  const listed = await git.run(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], dir);
  if (listed.exitCode !== 0) return { error: gitFailure(listed) };
  const ralphState = (path: string): boolean =>
    path === '.ralph/' || (path.startsWith('.ralph/') && !USER_RALPH_FILES.some((user) => path === user || path.startsWith(`${user}/`)));
  return listed.stdout
    .split('\0')
    .filter((path) => path !== '' && !ralphState(path))
    .sort();
}

export type RemoveOutcome = { kind: 'removed' } | { kind: 'kept'; why: string };

/** Removes a finished item's worktree (its branch stays), unless that would lose work. */
export async function removeItemWorktree(git: QueueGit, project: string, dir: string): Promise<RemoveOutcome> {
  if (!existsSync(dir)) {
    await git.run(['worktree', 'prune'], project);
    return { kind: 'removed' };
  }
  const unsaved = await unsavedChanges(git, dir);
  if (unsaved.length > 0) {
    const shown = unsaved.slice(0, 5).join(', ');
    return { kind: 'kept', why: `it holds changes that are not committed (${shown}${unsaved.length > 5 ? ', …' : ''})` };
  }
  // --force: only Ralph's own state files are left, which are not worth keeping.
  const removed = await git.run(['worktree', 'remove', '--force', dir], project);
  if (removed.exitCode !== 0) return { kind: 'kept', why: gitFailure(removed) };
  return { kind: 'removed' };
}
