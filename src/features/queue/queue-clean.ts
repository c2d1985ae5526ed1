import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { QueueItem } from '../../core/queue/queue-item.js';
import type { RalphPaths } from '../../state/paths.js';
import { isOwnerAlive, readQueue } from '../../state/queue-store.js';
import { commitItemWork, ignoredFiles, removeItemWorktree } from './item-commit.js';
import { checkItemFolder } from './own-worktree.js';
import type { QueueGit } from './queue-git.js';

/**
 * `ralph queue clean`: the worktrees under `.ralph/worktrees/` that no live
 * run is using are removed, and git forgets the ones that are gone. Work left
 * in an interrupted item's worktree is first committed on its branch, so
 * cleaning never loses it; a folder that is not one of the queue's worktrees
 * and holds changes is left alone. A worktree holding files git ignores (an
 * `.env`, `logs/`) is kept and they are listed, unless `--force` says to
 * delete them with it.
 */
export interface CleanReport {
  removed: string[];
  kept: { name: string; why: string }[];
  /** Worktrees removed with --force although they held ignored files, and those files. */
  deletedIgnored: { name: string; paths: string[] }[];
}

export interface CleanOptions {
  /** Remove a worktree even when it holds ignored files (they go with it). */
  force: boolean;
}

/** How many ignored paths a kept worktree's reason names; the rest are counted. */
const SHOWN_IGNORED = 8;

function listPaths(paths: readonly string[]): string {
  const more = paths.length > SHOWN_IGNORED ? ` and ${paths.length - SHOWN_IGNORED} more` : '';
  return `${paths.slice(0, SHOWN_IGNORED).join(', ')}${more}`;
}

export async function cleanWorktrees(paths: RalphPaths, git: QueueGit, options: CleanOptions = { force: false }): Promise<CleanReport> {
  const report: CleanReport = { removed: [], kept: [], deletedIgnored: [] };
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
    // Ignored files are in no commit: removing the worktree would delete them for good.
    const ignored = await ignoredFiles(git, dir);
    if (!Array.isArray(ignored)) {
      report.kept.push({ name, why: `its ignored files could not be listed: ${ignored.error}` });
      continue;
    }
    if (ignored.length > 0 && !options.force) {
      report.kept.push({
        name,
        why: `it holds files git ignores, which removing it would delete: ${listPaths(ignored)}. Copy what you need out of .ralph/worktrees/${name}, then run ralph queue clean --force`,
      });
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
    if (removed.kind === 'removed') {
      report.removed.push(name);
      if (ignored.length > 0) report.deletedIgnored.push({ name, paths: ignored });
    } else report.kept.push({ name, why: removed.why });
  }
  await git.run(['worktree', 'prune'], paths.project);
  return report;
}
