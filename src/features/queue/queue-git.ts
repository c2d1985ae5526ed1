import { ExitCode, RalphError } from '../../errors.js';
import { runGitText, type GitSetup } from '../../infra/git.js';
import type { ProcessRunner, RunResult } from '../../ports.js';

/**
 * The git calls of `ralph queue run`, in one place: each runs through the
 * sanitized git setup (no hooks, no signing, no inherited GIT_DIR), and a
 * failure becomes an error that quotes git's own words.
 */
export interface QueueGit {
  /** git in `cwd`; the outcome as it is (callers decide what a non-zero exit means). */
  run(args: readonly string[], cwd: string, setup?: GitSetup): Promise<RunResult>;
  /** git in `cwd`; stdout trimmed, or a RalphError naming `what` failed. */
  text(args: readonly string[], cwd: string, what: string): Promise<string>;
}

export function gitFailure(result: RunResult): string {
  return (result.spawnError ?? (result.stderr.trim() || result.stdout.trim())) || `exit code ${String(result.exitCode)}`;
}

export function createQueueGit(runner: ProcessRunner): QueueGit {
  const run = (args: readonly string[], cwd: string, setup: GitSetup = {}): Promise<RunResult> => runGitText(runner, args, { ...setup, cwd });
  return {
    run,
    async text(args, cwd, what) {
      const result = await run(args, cwd);
      if (result.exitCode !== 0) throw new RalphError(`Could not ${what}: ${gitFailure(result)}`, ExitCode.RuntimeError);
      return result.stdout.trim();
    },
  };
}

/** Where the run starts from: the branch (undefined when HEAD is detached) and its commit. */
export interface StartingPoint {
  branch: string | undefined;
  commit: string;
}

export async function readStartingPoint(git: QueueGit, project: string): Promise<StartingPoint> {
  const head = await git.run(['rev-parse', '--verify', '-q', 'HEAD^{commit}'], project);
  if (head.exitCode !== 0) {
    const inside = await git.run(['rev-parse', '--is-inside-work-tree'], project);
    throw new RalphError(
      inside.exitCode === 0
        ? 'ralph queue run needs a first commit: every item works on a branch made from it.'
        : `${project} is not a git repository; ralph queue run gives every item a git worktree and branch of its own.`,
      ExitCode.Usage,
      inside.exitCode === 0 ? 'Commit once (git add -A && git commit -m "start"), then run the queue.' : 'Run git init, commit once, then run the queue.',
    );
  }
  const branch = await git.run(['symbolic-ref', '--short', '-q', 'HEAD'], project);
  return { branch: branch.exitCode === 0 && branch.stdout.trim() !== '' ? branch.stdout.trim() : undefined, commit: head.stdout.trim() };
}

export async function branchExists(git: QueueGit, project: string, branch: string): Promise<boolean> {
  return (await git.run(['rev-parse', '--verify', '-q', `refs/heads/${branch}`], project)).exitCode === 0;
}
