import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { QueueItem } from '../../core/queue/queue-item.js';
import { ExitCode, RalphError } from '../../errors.js';
import { checkItemFolder } from './own-worktree.js';
import { branchExists, gitFailure, type QueueGit } from './queue-git.js';

/**
 * Each running item works in a git worktree of its own, `.ralph/worktrees/<id>`,
 * on its branch `ralph/<id>`, made from the commit the run started at. The
 * user's work tree, index and HEAD are never involved: `git worktree add`
 * only writes the new folder and the repository's worktree bookkeeping.
 * A worktree an interrupted run left behind is used again, with its work.
 */

export interface ItemPlace {
  /** Absolute path of the worktree. */
  dir: string;
  branch: string;
  /** True when an earlier run's worktree (or branch) was picked up again. */
  reused: boolean;
}

/** `.ralph/` and `.ralph/worktrees/` must be real folders of the project, never links out of it. */
function ensureRealDir(project: string, rel: string): void {
  const path = join(project, rel);
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (st && (st.isSymbolicLink() || !st.isDirectory())) {
    throw new RalphError(
      `${rel} is not a folder of this project (a symbolic link or a file); no worktree is made through it.`,
      ExitCode.RuntimeError,
      `Remove ${rel}, then run the queue again.`,
    );
  }
  if (!st) mkdirSync(path);
}

export async function prepareItemWorktree(git: QueueGit, project: string, item: QueueItem, startCommit: string): Promise<ItemPlace> {
  const rel = item.worktree ?? `.ralph/worktrees/${item.id}`;
  const branch = item.branch ?? `ralph/${item.id}`;
  const dir = join(project, rel);
  if (relative(join(project, '.ralph', 'worktrees'), dir).startsWith('..')) {
    throw new RalphError(
      `${item.id}: its worktree ${rel} is not under .ralph/worktrees/.`,
      ExitCode.RuntimeError,
      'Fix the item in .ralph/queue.json or remove it.',
    );
  }
  ensureRealDir(project, '.ralph');
  ensureRealDir(project, '.ralph/worktrees');
  const found = await checkItemFolder(git, project, dir, rel);
  if (found.kind === 'own') return { dir, branch, reused: true };
  if (found.kind === 'foreign') {
    throw new RalphError(`${item.id}: ${found.why}; the item is not run there.`, ExitCode.RuntimeError, found.hint);
  }
  // A folder git no longer knows (deleted by hand, or half made) is forgotten before it is made again.
  await git.run(['worktree', 'prune'], project);
  if (existsSync(dir)) {
    throw new RalphError(
      `${rel} exists but is not a git worktree; it is left as it is.`,
      ExitCode.RuntimeError,
      `Move it aside or remove it (rm -r ${rel}), then run the queue again.`,
    );
  }
  const reused = await branchExists(git, project, branch);
  const args = reused ? ['worktree', 'add', '-q', dir, branch] : ['worktree', 'add', '-q', '-b', branch, dir, startCommit];
  const made = await git.run(args, project);
  if (made.exitCode !== 0) {
    throw new RalphError(`Could not make the worktree ${rel} on ${branch}: ${gitFailure(made)}`, ExitCode.RuntimeError, 'ralph queue clean removes leftovers.');
  }
  return { dir, branch, reused };
}
