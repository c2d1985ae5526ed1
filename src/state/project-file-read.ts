import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { ExitCode, RalphError } from '../errors.js';

/**
 * Reading a file Ralph hands to the agent (its prompt, the fix plan, the task): such a file lies
 * in the project, where the agent writes. Inside the sandbox the agent cannot read ~/.ssh, but it
 * can replace `.ralph/PROMPT.md` with a link to `~/.ssh/id_rsa`; Ralph, outside the sandbox, would
 * then read the key and give it to the agent as its next prompt. So the file is read only where it
 * really lies inside the project (a link that stays inside is fine), only when it is a regular
 * file (a FIFO would block Ralph), and on Linux what was opened is checked once more through the
 * open descriptor, so a link swapped in between the check and the open is caught too.
 */

const INSIDE_ONLY = 'Ralph reads the files it gives the agent only from inside the project';
const HINT =
  'Put a regular file inside the project in its place (the agent may have replaced it with a link: see git status and git diff), then start Ralph again.';

/** Whether `path` is `dir` or lies below it (both absolute and real). */
function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function refused(label: string, path: string, why: string): RalphError {
  return new RalphError(`${label} ${path} ${why}; Ralph does not read it.`, ExitCode.RuntimeError, HINT);
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** Where an open descriptor really points, where the system says so (Linux); undefined elsewhere. */
function openedPath(fd: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * The text of `path`, a file inside `project` that Ralph gives the agent; undefined when nothing is
 * there. Throws a RalphError (exit 1) naming the file when it lies, or leads, outside the project,
 * or is not a regular file; other read errors are thrown as they are.
 */
export function readProjectText(project: string, path: string, label: string): string | undefined {
  try {
    lstatSync(path);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return undefined;
    throw error;
  }
  const root = realpathSync(project);
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ELOOP') throw refused(label, path, 'is a symbolic link that leads nowhere');
    throw error;
  }
  if (!isWithin(real, root))
    throw refused(label, path, `${isWithin(path, project) ? `leads outside the project (to ${real})` : 'is outside the project'}: ${INSIDE_ONLY}`);
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    // O_NOFOLLOW: the last part became a link after realpath looked at it.
    if (errnoOf(error) === 'ELOOP') throw refused(label, path, 'was replaced by a symbolic link while Ralph read it');
    throw error;
  }
  try {
    if (!fstatSync(fd).isFile()) throw refused(label, path, 'is not a regular file (a FIFO, a device or a folder)');
    const opened = openedPath(fd);
    if (opened !== undefined && !isWithin(opened, root)) throw refused(label, path, `leads outside the project (to ${opened}): ${INSIDE_ONLY}`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
