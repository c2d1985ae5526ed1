import { lstatSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { QueueGit } from './queue-git.js';

/**
 * An item's folder under `.ralph/worktrees/` is used (to run a loop, to
 * commit, to remove) only when it is a real folder and a worktree of this very
 * repository. A symbolic link there, or a folder holding another repository
 * (its own `git init`, or a worktree of some other clone), would otherwise run
 * the item — and commit its work — in a repository the queue does not belong
 * to, reported as if it were on the item's branch here.
 */

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

async function commonDir(git: QueueGit, cwd: string): Promise<string | undefined> {
  const result = await git.run(['rev-parse', '--git-common-dir'], cwd);
  if (result.exitCode !== 0) return undefined;
  return realOf(resolve(cwd, result.stdout.trim()));
}

export type WorktreeCheck =
  | { kind: 'absent' }
  | { kind: 'own' }
  /** A plain folder: git does not see a worktree there. */
  | { kind: 'not_worktree' }
  /** A link, a file, or a worktree of another repository; `hint` says how to get it out of the way without harm. */
  | { kind: 'foreign'; why: string; hint: string };

/** What `dir` is, as a place for an item of the repository of `project` to run in. */
export async function checkItemFolder(git: QueueGit, project: string, dir: string, rel: string): Promise<WorktreeCheck> {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st) return { kind: 'absent' };
  if (st.isSymbolicLink()) {
    return {
      kind: 'foreign',
      why: `${rel} is a symbolic link (to ${realOf(dir)}), not a worktree of this repository`,
      hint: `Remove the link (rm ${rel}; what it points to is not touched), then run the queue again.`,
    };
  }
  const moveAside = `Move it out of .ralph/worktrees/, then run the queue again.`;
  if (!st.isDirectory()) return { kind: 'foreign', why: `${rel} is a file, not a worktree of this repository`, hint: moveAside };
  const top = await git.run(['rev-parse', '--show-toplevel'], dir);
  if (top.exitCode !== 0 || realOf(top.stdout.trim()) !== realOf(dir)) return { kind: 'not_worktree' };
  const [mine, theirs] = await Promise.all([commonDir(git, project), commonDir(git, dir)]);
  if (mine === undefined || theirs !== mine) {
    return { kind: 'foreign', why: `${rel} belongs to another repository (its git directory is ${theirs ?? 'unknown'}), not this one`, hint: moveAside };
  }
  return { kind: 'own' };
}
