import { relative } from 'node:path';

/** A path as the user would type it in a shell. */
export function quoteForShell(path: string): string {
  return /^[\w./@:+-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/**
 * What to do after a new project is made (ralph-setup, ralph-import): go into it when it is not
 * the current folder, `firstStep` (which differs: describe the work, or review what the import
 * wrote), then the same two steps for every new project.
 */
export function nextStepsLines(cwd: string, projectDir: string, firstStep: string): string[] {
  const where = relative(cwd, projectDir) || '.';
  return [
    '',
    'Next steps:',
    ...(where === '.' ? [] : [`  cd ${quoteForShell(where)}`]),
    `  1. ${firstStep}`,
    '  2. Optional: set VERIFY_COMMAND in .ralphrc (for example "npm test") so Ralph checks the work itself',
    '  3. Start the loop: ralph        watch it from another terminal: ralph-monitor',
  ];
}
