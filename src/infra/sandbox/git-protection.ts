import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoContext } from '../git-repository.js';
import { lstatOrNull } from '../safe-fs.js';

/**
 * The files that decide what git reads as configuration and where it finds it, for the
 * project's repository: read-only to a contained command. Git runs what its configuration
 * names (hooks, filters, an fsmonitor program), so whoever may rewrite these may run commands
 * outside the sandbox the next time Ralph or the user runs git.
 *
 * The runtime itself denies the project's `.git/hooks` and `.git/config`, and pins the folders
 * above what is denied, so `.git` cannot be moved aside and made anew. Names that do not exist
 * are left out on purpose: the runtime would stand an empty file in for each while a command
 * runs, and git stops at once on an empty `.git/commondir`. That one appearing is caught by
 * Ralph's own check of the repository before its next git call (src/infra/git-guard.ts).
 */
export async function gitProtectedPaths(project: string): Promise<string[]> {
  const ctx = await repoContext(project);
  if (ctx === null) return [];
  const paths = new Set<string>();
  const addExisting = (path: string): void => {
    if (lstatOrNull(path) !== null) paths.add(path);
  };
  // A linked worktree's (or a submodule's) `.git` is a file naming its git dir.
  const dotGit = join(ctx.root, '.git');
  if (lstatOrNull(dotGit)?.isFile() === true) paths.add(dotGit);
  for (const dir of new Set([ctx.gitDir, ctx.commonDir])) {
    for (const name of ['config', 'config.worktree', 'commondir', 'gitdir', 'hooks', 'info']) addExisting(join(dir, name));
  }
  // Every linked worktree's own files: where it finds the repository, and its configuration.
  for (const name of entries(join(ctx.commonDir, 'worktrees'))) {
    for (const file of ['commondir', 'gitdir', 'config.worktree']) addExisting(join(ctx.commonDir, 'worktrees', name, file));
  }
  // Submodules' git dirs (a name with a "/" is a folder in a folder), nested as deep as git nests them.
  const modules = (dir: string, depth: number): void => {
    if (depth > 6) return;
    for (const name of entries(dir)) {
      const inner = join(dir, name);
      if (lstatOrNull(join(inner, 'HEAD')) === null) {
        modules(inner, depth + 1);
        continue;
      }
      for (const file of ['config', 'config.worktree', 'commondir', 'hooks', 'info']) addExisting(join(inner, file));
      modules(join(inner, 'modules'), depth + 1);
    }
  };
  modules(join(ctx.commonDir, 'modules'), 0);
  return [...paths];
}

/** The folders in `dir` (none when it is missing or not a folder). */
function entries(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}
