import { appendFileSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { QueueGit } from './queue-git.js';

/**
 * The items' worktrees live under `.ralph/worktrees/`, inside the user's work
 * tree; a project whose .gitignore does not cover `.ralph/` (ralph-setup's
 * does) would see them in `git status`. The repository's own exclude file
 * (`.git/info/exclude`, never committed, never shared) gets the one line that
 * hides them, once.
 */
export const WORKTREES_EXCLUDE_LINE = '/.ralph/worktrees/';

export async function excludeWorktrees(git: QueueGit, project: string, warn: (message: string) => void): Promise<void> {
  const where = await git.run(['rev-parse', '--git-path', 'info/exclude'], project);
  if (where.exitCode !== 0) return;
  const file = resolve(project, where.stdout.trim());
  try {
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (st && !st.isFile()) {
      warn(`${file} is not a plain file; .ralph/worktrees/ may show in git status (add ${WORKTREES_EXCLUDE_LINE} to .gitignore).`);
      return;
    }
    const text = st ? readFileSync(file, 'utf8') : '';
    if (text.split('\n').some((line) => line.trim() === WORKTREES_EXCLUDE_LINE)) return;
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, `${text === '' || text.endsWith('\n') ? '' : '\n'}# ralph queue run: the items' git worktrees\n${WORKTREES_EXCLUDE_LINE}\n`);
  } catch (error) {
    warn(`Could not add ${WORKTREES_EXCLUDE_LINE} to ${file} (${(error as Error).message}); .ralph/worktrees/ may show in git status.`);
  }
}
