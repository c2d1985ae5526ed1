import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { QueueItem } from '../../core/queue/queue-item.js';
import type { RalphPaths } from '../../state/paths.js';
import { isOwnerAlive, readQueue } from '../../state/queue-store.js';
import { commitItemWork, removeItemWorktree } from './item-commit.js';
import { checkItemFolder } from './own-worktree.js';
import type { QueueGit } from './queue-git.js';

/**
 * `ralph queue clean`: the worktrees under `.ralph/worktrees/` that no live
 * run is using are removed, and git forgets the ones that are gone. Work left
 * in an interrupted item's worktree is first committed on its branch, so
 * cleaning never loses it; a folder that is not one of the queue's worktrees
 * and holds changes is left alone.
 */
export interface CleanReport {
  removed: string[];
  kept: { name: string; why: string }[];
}

export async function cleanWorktrees(paths: RalphPaths, git: QueueGit): Promise<CleanReport> {
  const report: CleanReport = { removed: [], kept: [] };
  const root = join(paths.dir, 'worktrees');
  const items = new Map<string, QueueItem>(readQueue(paths).items.map((item) => [item.id, item]));
  let names: string[] = [];
  try {
    names = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name)
      .sort();
  } catch {
    // No worktrees folder: nothing to remove.
  }
  for (const name of names) {
    const item = items.get(name);
    if (item?.state === 'running' && (item.owner === undefined || isOwnerAlive(item.owner))) {
      report.kept.push({ name, why: 'its item is running' });
      continue;
    }
    const dir = join(root, name);
    const folder = await checkItemFolder(git, paths.project, dir, `.ralph/worktrees/${name}`);
    if (folder.kind === 'foreign') {
      report.kept.push({ name, why: `${folder.why}; it is left as it is` });
      continue;
    }
    if (folder.kind === 'not_worktree') {
      report.kept.push({ name, why: 'it is not a git worktree; it is left as it is' });
      continue;
    }
    if (item) {
      const commit = await commitItemWork(git, dir, item);
      if (commit.kind === 'failed') {
        report.kept.push({ name, why: `its work could not be committed on ${item.branch ?? `ralph/${name}`}: ${commit.error}` });
        continue;
      }
    }
    const removed = await removeItemWorktree(git, paths.project, dir);
    if (removed.kind === 'removed') report.removed.push(name);
    else report.kept.push({ name, why: removed.why });
  }
  await git.run(['worktree', 'prune'], paths.project);
  return report;
}
