import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExitCode, RalphError } from '../errors.js';

/** The files in `templates/` that project commands copy into a project. */
export type TemplateName = 'PROMPT.md' | 'fix_plan.md' | 'AGENT.md' | 'ralphrc' | 'gitignore';

export const TEMPLATE_NAMES: readonly TemplateName[] = ['PROMPT.md', 'fix_plan.md', 'AGENT.md', 'ralphrc', 'gitignore'];

let cachedRoot: string | undefined;

/**
 * The directory of the installed Ralph package: the nearest ancestor of this
 * module that holds both package.json and templates/. Found from the module's
 * own location, never from the current directory, so a stray `templates/`
 * folder where the user runs a command cannot hijack it (U§15.22).
 */
export function packageRoot(): string {
  if (cachedRoot !== undefined) return cachedRoot;
  const start = dirname(fileURLToPath(import.meta.url));
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'templates'))) {
      cachedRoot = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new RalphError(
        `Ralph's templates were not found: no directory above ${start} holds both package.json and templates/`,
        ExitCode.RuntimeError,
        'The installation is incomplete; reinstall Ralph (npm install -g ralph-ts).',
      );
    }
    dir = parent;
  }
}

export function templatesDir(): string {
  return join(packageRoot(), 'templates');
}

export function readTemplate(name: TemplateName): string {
  const path = join(templatesDir(), name);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new RalphError(`Ralph's template ${name} could not be read (${path}): ${(error as Error).message}`, ExitCode.RuntimeError, 'The installation is incomplete; reinstall Ralph.');
  }
}

/** The version in Ralph's own package.json (for --version). */
export function packageVersion(): string {
  const value: unknown = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'));
  if (typeof value === 'object' && value !== null && 'version' in value && typeof value.version === 'string') return value.version;
  return '0.0.0';
}

/**
 * Fills `{{NAME}}` placeholders. A placeholder without a value is a bug in
 * the caller, so it throws instead of leaving braces in a user's file.
 */
export function renderTemplate(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{([A-Z_]+)\}\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`template placeholder {{${name}}} has no value`);
    return value;
  });
}
