import { lstatSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { privateDirProblem } from '../core/private-dir.js';
import { sha256Hex } from '../core/sha256.js';
import { ExitCode, RalphError } from '../errors.js';

/**
 * Where a project's run-time files live (the loop lock, who holds it, what a
 * run started): somewhere the agent's own file operations do not reach. The
 * work tree is no such place — `git clean -fdx` or `rm -rf .ralph` would take
 * the lock with it and let a second loop start. Inside a git repository the
 * files go into the git directory (`.git/ralph/`, per worktree); without git,
 * into a private per-user directory keyed by the project's real path.
 */

/** Computed without node:crypto, which alone costs a read-only command about 10 ms of start. */
const hashOf = (text: string): string => sha256Hex(text).slice(0, 16);

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The git directory of the repository that holds `dir`, when `.git` is a plain directory or a `gitdir:` file (worktrees). */
function findGitDir(dir: string): { gitDir: string; top: string } | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const dotGit = join(current, '.git');
    try {
      const info = lstatSync(dotGit);
      // A .git that is a symlink could point anywhere: Ralph never writes through it.
      if (info.isSymbolicLink()) return undefined;
      if (info.isDirectory()) return { gitDir: dotGit, top: current };
      if (info.isFile()) {
        const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
        if (!match?.[1]) return undefined;
        const gitDir = isAbsolute(match[1]) ? match[1] : resolve(current, match[1]);
        return statSync(gitDir).isDirectory() ? { gitDir, top: current } : undefined;
      }
    } catch {
      // No .git here (or unreadable): look further up.
    }
    if (dirname(current) === current) return undefined;
  }
}

function userRuntimeRoot(env: NodeJS.ProcessEnv): string {
  const xdg = env['XDG_RUNTIME_DIR'];
  if (xdg && isAbsolute(xdg)) return join(xdg, 'ralph');
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return join(tmpdir(), `ralph-${uid}`);
}

export interface RuntimeLocation {
  dir: string;
  /** The directory under which `dir` is made: `.git/ralph` or the per-user root. */
  base: string;
  /** The per-user root must be private (ours, mode 0700); the git directory is the repository's own. */
  private: boolean;
}

export function locateRuntime(projectDir: string, env: NodeJS.ProcessEnv = process.env): RuntimeLocation {
  const project = realOrResolved(projectDir);
  const git = findGitDir(project);
  if (git) {
    const base = join(git.gitDir, 'ralph');
    const sub = relative(realOrResolved(git.top), project);
    // Projects in subdirectories of one repository each get their own lock.
    return { dir: sub === '' ? base : join(base, `project-${hashOf(sub)}`), base, private: false };
  }
  const base = userRuntimeRoot(env);
  return { dir: join(base, hashOf(project)), base, private: true };
}

/** The run-time directory of `projectDir`; nothing is created. */
export function locateRuntimeDir(projectDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return locateRuntime(projectDir, env).dir;
}

function refuse(why: string): never {
  throw new RalphError(
    `Ralph cannot keep its lock there: ${why}.`,
    ExitCode.RuntimeError,
    'Remove or fix that path (it must be a directory of yours that only you can write to), then run ralph again.',
  );
}

function checkDirectory(path: string, mustBePrivate: boolean): void {
  const info = lstatSync(path);
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const facts = { isSymbolicLink: info.isSymbolicLink(), isDirectory: info.isDirectory(), uid: uid === undefined ? undefined : info.uid, mode: info.mode };
  // The git directory is the repository's own: only a link or a non-directory is refused there.
  const problem = mustBePrivate ? privateDirProblem(path, facts, uid) : privateDirProblem(path, { ...facts, uid: undefined, mode: 0o700 }, undefined);
  if (problem !== undefined) refuse(problem);
}

/** Creates the run-time directory (mode 0700) and checks that no part Ralph made is a symlink or, outside git, someone else's. */
export function ensureRuntimeDir(projectDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const location = locateRuntime(projectDir, env);
  makeDirectory(location.base, location.private);
  makeDirectory(location.dir, location.private);
  return location.dir;
}

/** mkdir -p, then the checks; a file (or a link) in the way is named rather than failing with EEXIST. */
function makeDirectory(path: string, mustBePrivate: boolean): void {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  } catch (error) {
    if (lstatSync(path, { throwIfNoEntry: false })) checkDirectory(path, mustBePrivate);
    throw error;
  }
  checkDirectory(path, mustBePrivate);
}
