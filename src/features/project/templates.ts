import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, ExitCode, RalphError } from '../../errors.js';
import { packageRoot } from '../../infra/package-info.js';

/** The files in `templates/` that project commands copy into a project. */
export type TemplateName = 'PROMPT.md' | 'fix_plan.md' | 'AGENT.md' | 'ralphrc' | 'gitignore';

export const TEMPLATE_NAMES: readonly TemplateName[] = ['PROMPT.md', 'fix_plan.md', 'AGENT.md', 'ralphrc', 'gitignore'];

export function templatesDir(): string {
  return join(packageRoot(), 'templates');
}

export function readTemplate(name: TemplateName): string {
  const path = join(templatesDir(), name);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new RalphError(
      `Ralph's template ${name} could not be read (${path}): ${errorMessage(error)}`,
      ExitCode.RuntimeError,
      'The installation is incomplete; reinstall Ralph.',
    );
  }
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
