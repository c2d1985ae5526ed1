import { isAbsolute, join } from 'node:path';
import type { ProcessRunner, RunResult } from '../ports.js';
import { runGitText } from './git.js';

/**
 * A git work tree as Ralph sees it: repository facts, HEAD, changed paths, and
 * plain git calls, with the user's hooks off. Checkpoints and rollback build on it
 * (snapshot-commit.ts, state-apply.ts) and never touch the user's index.
 */
export interface GitInfo {
  /** Absolute path of the repository's top level. */
  root: string;
  /** The project directory relative to the top level, with a trailing slash ('' at the top). */
  prefix: string;
  /** Absolute path of the repository's git dir. */
  gitDir: string;
}

export interface GitRunOptions {
  /** Set on purpose (GIT_INDEX_FILE for a private index); the rest is git.ts's sanitized environment. */
  env?: Record<string, string>;
  input?: string;
  cwd?: string;
}

export class GitWorkspace {
  private info: GitInfo | null | undefined;

  constructor(
    readonly projectDir: string,
    private readonly runner: ProcessRunner,
  ) {}

  async git(args: readonly string[], env?: Record<string, string>): Promise<RunResult> {
    return runGitText(this.runner, args, { cwd: this.projectDir, ...(env ? { env } : {}) });
  }

  /**
   * `git` with text on stdin and/or another working directory (checkpoints feed
   * path lists to `update-index --stdin` and run path-based commands from the top).
   */
  async run(args: readonly string[], options: GitRunOptions = {}): Promise<RunResult> {
    const { env, input, cwd } = options;
    return runGitText(this.runner, args, { cwd: cwd ?? this.projectDir, ...(env ? { env } : {}), ...(input !== undefined ? { input } : {}) });
  }

  private async gitOk(args: readonly string[], env?: Record<string, string>): Promise<string> {
    const result = await this.git(args, env);
    if (result.exitCode !== 0) throw new Error(`git ${args.join(' ')} failed: ${(result.stderr || result.spawnError || '').trim()}`);
    return result.stdout;
  }

  /** Repository facts, or null when the project is not inside a git work tree. */
  async repo(): Promise<GitInfo | null> {
    if (this.info !== undefined) return this.info;
    const result = await this.git(['rev-parse', '--show-toplevel', '--show-prefix', '--git-dir']);
    if (result.exitCode !== 0) {
      this.info = null;
      return null;
    }
    const [root = '', prefix = '', gitDirRaw = ''] = result.stdout.split('\n');
    const gitDir = isAbsolute(gitDirRaw) ? gitDirRaw : join(this.projectDir, gitDirRaw);
    this.info = { root, prefix, gitDir };
    return this.info;
  }

  /** HEAD commit, or undefined on an unborn branch. */
  async head(): Promise<string | undefined> {
    const result = await this.git(['rev-parse', '--verify', '-q', 'HEAD']);
    return result.exitCode === 0 ? result.stdout.trim() : undefined;
  }

  /** Pathspec that covers the whole repository except Ralph's own state directory. */
  async pathspecWithoutRalphState(): Promise<string[]> {
    const info = await this.repo();
    return [':(top)', `:(top,exclude)${info?.prefix ?? ''}.ralph`];
  }

  /** Paths that differ between two trees (or commits), Ralph's state excluded. */
  async changedPaths(from: string, to: string): Promise<string[]> {
    const spec = await this.pathspecWithoutRalphState();
    const out = await this.gitOk(['diff', '--name-only', '--no-renames', '-z', from, to, '--', ...spec]);
    return out.split('\0').filter((p) => p.length > 0);
  }
}
