import { closeSync, constants, lstatSync, mkdirSync, openSync, rmSync, writeSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * Writing and deleting files named by untrusted relative paths (a mock
 * script's `files`) so that nothing outside `root` is ever touched: the text
 * must be a plain relative path (no absolute path, no `..`, nothing inside a
 * `.git` folder), and no component below `root` may be a symlink — every one
 * is lstat'ed on the way down, and the file itself is opened with O_NOFOLLOW.
 */

/** What is wrong with a relative path's text, or undefined when it is fine. */
export function containedPathProblem(path: string): string | undefined {
  if (path === '' || path.trim() === '') return 'the path is empty';
  if (path.includes('\0')) return 'the path contains a NUL character';
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return 'absolute paths are not allowed';
  const parts = path.split(/[\\/]/);
  if (parts.some((part) => part === '..')) return '".." is not allowed';
  if (parts.some((part) => part.toLowerCase() === '.git')) return 'paths inside .git/ are not allowed: it belongs to the repository';
  return undefined;
}

export class ContainedPathError extends Error {}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function componentsOf(path: string): string[] {
  return path.split(/[\\/]/).filter((part) => part !== '' && part !== '.');
}

/**
 * Checks `relative` without changing anything: the reason it would be
 * refused, or undefined. Missing components are fine (they will be created).
 */
export function containedPathRefusal(root: string, relative: string, use: 'write' | 'delete'): string | undefined {
  const problem = containedPathProblem(relative);
  if (problem !== undefined) return problem;
  const parts = componentsOf(relative);
  if (parts.length === 0) return 'the path names the project folder itself';
  let at = root;
  for (const [index, part] of parts.entries()) {
    at = join(at, part);
    const stat = lstatOrUndefined(at);
    if (stat === undefined) return undefined;
    const shown = parts.slice(0, index + 1).join('/');
    const last = index === parts.length - 1;
    // Deleting a link removes the link itself, which lives inside root.
    if (stat.isSymbolicLink() && !(last && use === 'delete')) return `"${shown}" is a symbolic link; files are never written or deleted through one`;
    if (!last && !stat.isDirectory()) return `"${shown}" is not a directory`;
  }
  return undefined;
}

function refuseIfBad(root: string, relative: string, use: 'write' | 'delete'): string[] {
  const refusal = containedPathRefusal(root, relative, use);
  if (refusal !== undefined) throw new ContainedPathError(refusal);
  return componentsOf(relative);
}

/** Writes `content` to `root/relative`, creating missing folders, never through a symlink. */
export function writeContainedFile(root: string, relative: string, content: string): void {
  const parts = refuseIfBad(root, relative, 'write');
  let at = root;
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    try {
      mkdirSync(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // Re-checked after the mkdir: a link swapped in meanwhile is refused too.
    if (!lstatSync(at).isDirectory()) throw new ContainedPathError(`"${relative}": a folder on its way is not a real directory`);
  }
  const fd = openSync(join(at, parts[parts.length - 1] as string), constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o666);
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
}

/** Deletes `root/relative` (a file, a link, or a whole folder), never through a symlink; a missing path is no error. */
export function removeContainedPath(root: string, relative: string): void {
  const parts = refuseIfBad(root, relative, 'delete');
  // rmSync removes a folder's contents without following links inside it.
  rmSync(join(root, ...parts), { recursive: true, force: true });
}
