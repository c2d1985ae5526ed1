import { existsSync } from 'node:fs';
import { ExitCode, RalphError } from '../errors.js';
import { runGitText } from '../infra/git.js';
import type { ProcessRunner } from '../ports.js';
import type { RalphPaths } from '../state/paths.js';

/**
 * `ralph run` works in any folder, not only a Ralph project: it keeps the
 * task's state in a `.ralph/` it creates. That is said on start, and outside a
 * git repository it is refused unless asked for, because there Ralph sees
 * progress only by file times and has no checkpoint to roll back to.
 * @returns the line to log when `.ralph/` is about to be created, else undefined
 */
export async function checkTaskFolder(paths: RalphPaths, runner: ProcessRunner, allowNoGit: boolean): Promise<string | undefined> {
  if (existsSync(paths.dir)) return undefined;
  const inside = await runGitText(runner, ['rev-parse', '--is-inside-work-tree'], { cwd: paths.project });
  const isRepo = inside.spawnError === undefined && inside.exitCode === 0 && inside.stdout.trim() === 'true';
  if (!isRepo && !allowNoGit) {
    throw new RalphError(
      `${paths.project} is not a git repository, and ralph run needs one to see the agent's changes and to undo them when the verify command fails.`,
      ExitCode.Usage,
      'Run `git init && git add -A && git commit -m "before ralph"` here first, or pass --allow-no-git to run without checkpoints or rollback.',
    );
  }
  return `No Ralph project here: this task's state and logs go to ${paths.dir} (created now). Run ralph-enable for a full project with PROMPT.md and fix_plan.md.`;
}
