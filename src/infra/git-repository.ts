import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { runGitBytes } from './git.js';

/**
 * Where a project sits in its repository: the top level, the git dir of its
 * work tree and the directory every work tree shares. Checkpoints and the
 * sandbox's protection of the git dir both start from it.
 */

export interface RepoContext {
  /** The Ralph project's directory (absolute). */
  project: string;
  /** The repository's top level (absolute). */
  root: string;
  /** The project relative to the top, '' or ending in '/'. */
  prefix: string;
  /** This work tree's git dir: index, HEAD and operation state live here. */
  gitDir: string;
  /** Shared refs, objects and reflogs (differs from gitDir in a linked worktree). */
  commonDir: string;
}

// Cache: the repository around each project (top level, git dirs); the same for every loop in it; read
// again when the git dir has gone.
const contexts = new Map<string, RepoContext>();

/** The repository around `project`, or null when it is not inside a git work tree. */
export async function repoContext(project: string): Promise<RepoContext | null> {
  // A project does not move between repositories while Ralph runs; the answer is kept once found.
  const known = contexts.get(resolve(project));
  if (known && existsSync(known.gitDir)) return known;
  const result = await runGitBytes(['rev-parse', '--show-toplevel', '--show-prefix', '--git-dir', '--git-common-dir'], { cwd: project });
  if (result.failure !== undefined || result.exitCode !== 0) return null;
  const [root = '', prefix = '', gitDir = '', commonDir = ''] = result.stdout.toString('utf8').split('\n');
  if (!root) return null;
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(project, p));
  const ctx = { project: resolve(project), root, prefix, gitDir: abs(gitDir), commonDir: abs(commonDir) };
  contexts.set(ctx.project, ctx);
  return ctx;
}
