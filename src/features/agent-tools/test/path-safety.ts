import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { ToolError } from './tool-error.js';
import { errorMessage } from '../../../errors.js';

/**
 * Every path a test tool takes (fixtures, file assertions) must stay inside
 * its workspace. Two checks: the text
 * (no absolute paths, no `..` segments, no NUL) and the file system (no
 * symlink, dangling or not, that leads out of the workspace).
 */

/** What is wrong with a relative path's text, or undefined when it is fine. */
export function checkRelativePath(path: string): string | undefined {
  if (path === '' || path.trim() === '') return 'the path is empty';
  if (path.includes('\0')) return 'the path contains a NUL character';
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return 'absolute paths are not allowed; give a path relative to the workspace';
  if (path.split(/[\\/]/).some((part) => part === '..')) return '".." is not allowed: paths must stay inside the workspace';
  return undefined;
}

export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

function outside(what: string, path: string, reason: string): ToolError {
  return new ToolError(
    'path_outside_workspace',
    `${what} "${path}" is refused: ${reason}`,
    { path },
    'Use a path relative to the workspace, without "..", that does not go through a symlink pointing outside it.',
  );
}

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** The real location `path` refers to: symlinks followed, missing tail components kept as they are. */
function realLocation(path: string, depth = 0): string {
  if (depth > 40) throw new Error('too many levels of symbolic links');
  const stat = lstatOrUndefined(path);
  if (stat?.isSymbolicLink()) {
    try {
      return realpathSync(path);
    } catch {
      // Dangling: where writing through it would land.
      return realLocation(resolve(dirname(path), readlinkSync(path)), depth + 1);
    }
  }
  if (stat) return realpathSync(path);
  const parent = dirname(path);
  if (parent === path) return path;
  return join(realLocation(parent, depth + 1), path.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
}

/**
 * The absolute path of `relative` inside `root`, or a `path_outside_workspace`
 * error saying why it is refused. `what` names the parameter in the message.
 */
export function resolveInside(root: string, relative: string, what = 'path'): string {
  const problem = checkRelativePath(relative);
  if (problem) throw outside(what, relative, problem);
  const realRoot = realpathSync(root);
  const target = join(realRoot, relative);
  let real: string;
  try {
    real = realLocation(target);
  } catch (error) {
    throw outside(what, relative, errorMessage(error));
  }
  if (!isInside(realRoot, real)) throw outside(what, relative, `it leads to ${real} through a symbolic link, outside the workspace`);
  return target;
}
