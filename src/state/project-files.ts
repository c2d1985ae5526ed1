import { existsSync } from 'node:fs';
import { relative } from 'node:path';
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
