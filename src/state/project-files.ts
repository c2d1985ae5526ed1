import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { NotAProjectError } from '../errors.js';
import { ralphPaths, type RalphPaths } from './paths.js';

/**
 * The files a Ralph project cannot loop without, besides the `.ralph/`
 * directory itself: the prompt (RALPH_PROMPT_FILE may name another one), the
 * plan, the agent notes and `.ralphrc`. The loop checks them before every
 * iteration, `ralph` before it starts, and `ralph-enable` restores them.
 */
export function requiredProjectFiles(paths: RalphPaths, promptPath = paths.prompt): string[] {
  return [promptPath, paths.fixPlan, paths.agent, paths.ralphrc];
}

/** The required files missing in `projectDir`, relative to it (`.ralph/PROMPT.md`). */
export function missingProjectFiles(projectDir: string): string[] {
  const paths = ralphPaths(projectDir);
  return requiredProjectFiles(paths)
    .filter((p) => !existsSync(p))
    .map((p) => relative(paths.project, p));
}

/** The commands that make a folder a Ralph project, for messages that find none. */
export const WAYS_INTO_A_PROJECT = [
  '  • ralph-enable            add Ralph to the project in this directory',
  '  • ralph-setup <name>      create a new Ralph project',
  '  • ralph-import <prd.md>   turn a PRD or spec into a Ralph project',
  "  • or cd into your Ralph project's directory",
].join('\n');

/**
 * Refuses a command that shows or changes a project's state where there is no
 * `.ralph/` directory: answering "nothing running" there would read as "all
 * well" to a script that ran in the wrong folder.
 */
export function requireProjectDir(paths: RalphPaths): void {
  if (!existsSync(paths.dir))
    throw new NotAProjectError(`${paths.project} is not a Ralph project (there is no .ralph/ directory).`, `To start:\n${WAYS_INTO_A_PROJECT}`);
}
