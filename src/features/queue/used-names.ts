import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RalphPaths } from '../../state/paths.js';
import type { QueueGit } from './queue-git.js';

/**
 * The item names the repository already uses: a `ralph/<name>` branch or a
 * `.ralph/worktrees/<name>` entry left by an earlier item (cleared from the
 * queue since, or from a queue file that was moved aside). A new item never
 * takes such a name, so it never runs on an earlier item's branch and work.
 * Outside git (no branches to read) only the folders count.
 */
export async function usedItemNames(git: QueueGit, paths: RalphPaths): Promise<(name: string) => boolean> {
  const names = new Set<string>();
  const branches = await git.run(['for-each-ref', '--format=%(refname)', 'refs/heads/ralph/'], paths.project);
  if (branches.exitCode === 0) {
    for (const ref of branches.stdout.split('\n')) if (ref.startsWith('refs/heads/ralph/')) names.add(ref.slice('refs/heads/ralph/'.length));
  }
  try {
    for (const entry of readdirSync(join(paths.dir, 'worktrees'))) names.add(entry);
  } catch {
    // No worktrees folder: no folder name is in use.
  }
  return (name) => names.has(name);
}
