import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NotAProjectError, UsageError } from '../errors.js';
import type { RalphPaths } from '../state/paths.js';
import { requiredProjectFiles, WAYS_INTO_A_PROJECT as WAYS_IN } from '../state/project-files.js';

/**
 * Refuses to start a loop outside a Ralph project, saying which command gets
 * the user there (old flat layout, no .ralph/, or missing files).
 */
export function assertRalphProject(paths: RalphPaths, promptFile: string): void {
  const root = paths.project;
  if (!existsSync(paths.dir)) {
    if (['PROMPT.md', '@fix_plan.md', 'fix_plan.md', '@AGENT.md'].some((f) => existsSync(join(root, f)))) {
      throw new NotAProjectError(
        `This project uses the old flat layout (PROMPT.md and fix_plan.md at the top level, no .ralph/ directory).`,
        'Move PROMPT.md, fix_plan.md and AGENT.md into .ralph/ (mkdir .ralph && git mv PROMPT.md fix_plan.md AGENT.md .ralph/), or run ralph-enable to create a fresh layout.',
      );
    }
    throw new NotAProjectError(`${root} is not a Ralph project (there is no .ralph/ directory).`, `To start:\n${WAYS_IN}`);
  }
  const missing = requiredProjectFiles(paths, promptFile)
    .filter((p) => !existsSync(p))
    .map((p) => p.slice(root.length + 1));
  if (missing.length > 0) {
    throw new NotAProjectError(
      `This Ralph project is incomplete; missing: ${missing.join(', ')}.`,
      'Run ralph-enable to restore only the missing files (the files you have are kept as they are), or create them by hand.',
    );
  }
}

/**
 * A prompt file named by `--prompt` that does not exist is a mistake in the
 * command line, not an incomplete project: exit 2, naming the file.
 */
export function assertPromptFlagFile(given: string | undefined, promptPath: string): void {
  if (given === undefined || existsSync(promptPath)) return;
  throw new UsageError(
    `--prompt ${given}: no such file (looked for ${promptPath}).`,
    'Name an existing prompt file (a path relative to the project), or leave --prompt out to use .ralph/PROMPT.md.',
  );
}
