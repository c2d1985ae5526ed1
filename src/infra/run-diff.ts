import type { ProcessRunner } from '../ports.js';
import { runGitText } from './git.js';

/** The run's changes as the reviewer (--review) reads them: what git says, bounded. */
export interface RunDiffSource {
  runDiff(): Promise<{ diff: string; base?: string }>;
}

/** git's empty tree: the base of a repository that had no commit when the loop started. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
/** More than any prompt budget: what is read beyond it is never shown. */
const MAX_DIFF_CHARS = 256 * 1024;
const MAX_NEW_FILES = 100;
/** Ralph's own state is no part of the work under review. */
const NOT_RALPH = ':(exclude).ralph';

/**
 * Notes the commit the loop starts at, and gives the diff from it to the working tree at each
 * review: committed, staged and unstaged changes, and each new file that git does not ignore,
 * as a diff from nothing. Outside a git repository there is no diff to give, and it says so.
 */
export async function startRunDiff(project: string, runner: ProcessRunner): Promise<RunDiffSource> {
  const inside = await runGitText(runner, ['rev-parse', '--is-inside-work-tree'], { cwd: project });
  if (inside.exitCode !== 0 || inside.stdout.trim() !== 'true') {
    return { runDiff: async () => ({ diff: '(the project is not a git repository: there is no diff; read the files themselves)' }) };
  }
  const head = await runGitText(runner, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: project });
  const start = head.exitCode === 0 ? head.stdout.trim() : undefined;
  return {
    async runDiff() {
      const tracked = await runGitText(runner, ['diff', '--no-color', '--no-ext-diff', '--no-textconv', start ?? EMPTY_TREE, '--', '.', NOT_RALPH], {
        cwd: project,
      });
      const parts = [tracked.exitCode === 0 ? tracked.stdout : `(git diff failed: ${tracked.stderr.trim().slice(0, 200)})`];
      let size = parts[0]?.length ?? 0;
      const untracked = await runGitText(runner, ['ls-files', '--others', '--exclude-standard', '-z', '--', '.', NOT_RALPH], { cwd: project });
      const files = untracked.exitCode === 0 ? untracked.stdout.split('\0').filter((f) => f !== '') : [];
      for (const file of files.slice(0, MAX_NEW_FILES)) {
        if (size >= MAX_DIFF_CHARS) break;
        // --no-index exits 1 when the files differ, which a new file always does.
        const added = await runGitText(runner, ['diff', '--no-color', '--no-ext-diff', '--no-index', '--', '/dev/null', file], { cwd: project });
        parts.push(added.stdout);
        size += added.stdout.length;
      }
      if (files.length > MAX_NEW_FILES) parts.push(`(${files.length - MAX_NEW_FILES} more new files not shown)`);
      const diff = parts.join('').slice(0, MAX_DIFF_CHARS);
      return { diff, ...(start ? { base: start.slice(0, 12) } : {}) };
    },
  };
}
