import type { FileEntry } from '../capture/repo-state.js';
import { objectWriter } from '../git/object-writer.js';
import type { RepoContext } from '../git/git-plumbing.js';
import { TreeWriter } from './tree-writer.js';

/**
 * The tree of a snapshot's files, at their repository paths. The directories
 * of the last tree are kept for the rest of the run (tree-writer.ts): the next
 * snapshot hands git's mktree only the trees of the directories where
 * something changed, so a commit by the agent costs a few trees, not a tree
 * of every file written from scratch.
 */

/** The tree writer of each project this process snapshots, with the directories of its last tree. */
// Cache: the directories of the last tree per repository and project prefix; a tree writer checks
// them against the files it is given, so loops may share it; dropped on a failure or by forgetKeptTrees.
const writers = new Map<string, TreeWriter>();

export async function filesTree(ctx: RepoContext, files: ReadonlyMap<string, FileEntry>): Promise<string> {
  const key = `${ctx.commonDir}\0${ctx.prefix}`;
  let writer = writers.get(key);
  if (!writer) {
    writer = new TreeWriter(Buffer.from(ctx.prefix, 'utf8').toString('latin1'));
    writers.set(key, writer);
  }
  try {
    return await writer.write(objectWriter(ctx), files);
  } catch (error) {
    // What it keeps is unknown after a failure: the next snapshot starts from nothing.
    writers.delete(key);
    throw error;
  }
}

/** Forgets the kept directories: a snapshot that starts over (an object was pruned) writes every tree again. */
export function forgetKeptTrees(ctx: RepoContext): void {
  writers.delete(`${ctx.commonDir}\0${ctx.prefix}`);
}
