import { realpathSync } from 'node:fs';
import { runGitText } from '../../../infra/git.js';
import type { ProcessRunner, RunResult } from '../../../ports.js';

export const INITIAL_COMMIT_MESSAGE = 'Initial Ralph project setup';

/** Used only when git has no identity at all, and only in the new repository. */
export const FALLBACK_IDENTITY = { name: 'Ralph Setup', email: 'ralph-setup@localhost' } as const;

export interface RepositoryResult {
  /**
   * `created`: git init ran here; `existing`: the folder already was a repository's top level;
   * `parent`: the folder lies inside another repository (nothing committed there);
   * `no-git`: git is not installed.
   */
  repository: 'created' | 'existing' | 'parent' | 'no-git';
  committed: boolean;
  /** A local user.name/user.email was set because git had none. */
  identitySet: boolean;
  warnings: string[];
}

function takeFirstLine(result: RunResult): string {
  const text = `${result.stderr}\n${result.stdout}`.trim();
  return text.split('\n').find((line) => line.trim() !== '') ?? `exit code ${String(result.exitCode)}`;
}

function isSamePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

export interface CommitOptions {
  /**
   * The folder is new (created by this command): it gets its own repository
   * even inside another one. An existing folder inside another repository is
   * left to that repository and nothing is committed.
   */
  newFolder: boolean;
  runner: ProcessRunner;
}

/**
 * Puts a freshly set-up project under git: `git init` unless the folder is a
 * repository already (see CommitOptions.newFolder), then one commit holding
 * exactly `files` (the files setup created, never `git add .` of whatever was
 * there), so the user's own staged changes stay staged and uncommitted.
 * Works without a global git identity by setting a local one only when none
 * is configured. Failures are warnings: the project's files exist either way.
 */
export async function commitInitialSetup(dir: string, files: readonly string[], options: CommitOptions): Promise<RepositoryResult> {
  const runner = options.runner;
  // The first commit is the user's, in the user's repository: their identity and their hooks.
  const git = (...args: string[]): Promise<RunResult> => runGitText(runner, args, { cwd: dir, hooks: 'user' });
  const result: RepositoryResult = { repository: 'created', committed: false, identitySet: false, warnings: [] };

  const top = await git('rev-parse', '--show-toplevel');
  if (top.spawnError !== undefined) {
    result.repository = 'no-git';
    result.warnings.push(
      'git is not installed, so the project was not put under version control; Ralph needs git to see progress. Install git, then run: git init',
    );
    return result;
  }
  const topDir = top.exitCode === 0 ? top.stdout.trim() : undefined;
  if (topDir !== undefined && isSamePath(topDir, dir)) {
    result.repository = 'existing';
  } else if (topDir !== undefined && !options.newFolder) {
    result.repository = 'parent';
    result.warnings.push(`this folder is inside the git repository ${topDir}; Ralph's files were not committed there. Review and commit them yourself.`);
    return result;
  } else {
    const init = await git('init', '-q');
    if (init.exitCode !== 0) {
      result.warnings.push(`git init failed: ${takeFirstLine(init)}`);
      return result;
    }
  }
  if (files.length === 0) return result;

  for (const [key, value] of [
    ['user.name', FALLBACK_IDENTITY.name],
    ['user.email', FALLBACK_IDENTITY.email],
  ] as const) {
    const current = await git('config', key);
    if (current.stdout.trim() === '') {
      const set = await git('config', '--local', key, value);
      if (set.exitCode === 0) result.identitySet = true;
    }
  }

  const add = await git('add', '--', ...files);
  if (add.exitCode !== 0) {
    result.warnings.push(`git add failed, nothing was committed: ${takeFirstLine(add)}`);
    return result;
  }
  const staged = await git('diff', '--cached', '--quiet', '--', ...files);
  if (staged.exitCode === 0) return result;
  const commit = await git('commit', '-q', '-m', INITIAL_COMMIT_MESSAGE, '--only', '--', ...files);
  if (commit.exitCode !== 0) {
    result.warnings.push(`git commit failed, Ralph's files are not committed: ${takeFirstLine(commit)}`);
    return result;
  }
  result.committed = true;
  return result;
}
