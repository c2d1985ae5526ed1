import { closeSync, constants, fstatSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RalphPaths } from './paths.js';

/**
 * `ralph run` in a folder that is no Ralph project keeps its task's state in a
 * `.ralph/` it creates. That folder is Ralph's working state, not the user's
 * work: a `.gitignore` inside it keeps all of it out of `git status`, commits
 * and checkpoints, without touching any file of the user's. ralph-enable
 * removes exactly this file when it turns the folder into a full project,
 * whose plan and prompt belong in git.
 */
export const TASK_STATE_IGNORE = "# Ralph's state for `ralph run` tasks, kept out of git. ralph-enable removes this file.\n*\n";

const ignoreFile = (paths: RalphPaths): string => join(paths.dir, '.gitignore');

/** Writes the ignore file into a `.ralph/` that was just created; never replaces or follows anything. */
export function ignoreTaskState(paths: RalphPaths): void {
  let fd: number;
  try {
    fd = openSync(ignoreFile(paths), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  try {
    writeSync(fd, TASK_STATE_IGNORE);
  } finally {
    closeSync(fd);
  }
}

/** Removes the ignore file `ralph run` wrote, when it is still exactly that file; true when it was removed. */
export function dropTaskStateIgnore(paths: RalphPaths): boolean {
  let fd: number;
  try {
    fd = openSync(ignoreFile(paths), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size !== Buffer.byteLength(TASK_STATE_IGNORE)) return false;
    const bytes = Buffer.alloc(stat.size);
    readSync(fd, bytes, 0, stat.size, 0);
    if (bytes.toString('utf8') !== TASK_STATE_IGNORE) return false;
  } finally {
    closeSync(fd);
  }
  unlinkSync(ignoreFile(paths));
  return true;
}
