import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { RalphPaths } from '../../state/paths.js';

/** Whether `inner` is `outer` or below it, as plain path strings. */
function isWithin(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

/**
 * The folder of a queue item's worktree, only when it is a folder inside the
 * project's `.ralph/` once links are followed: the file is written by another
 * process, and a path leading out of the project is never read from.
 */
export function queueWorktreeDir(paths: RalphPaths, worktree: string): string | undefined {
  if (isAbsolute(worktree)) return undefined;
  const dir = resolve(paths.project, worktree);
  if (!isWithin(paths.dir, dir)) return undefined;
  try {
    if (!statSync(dir).isDirectory()) return undefined;
    return isWithin(realpathSync(paths.dir), realpathSync(dir)) ? dir : undefined;
  } catch {
    return undefined;
  }
}
