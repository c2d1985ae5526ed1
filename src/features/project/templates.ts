import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FIELDS, CONFIG_KEYS, type ConfigField } from '../../config/keys.js';
import type { ValueType } from '../../config/value-types.js';
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

/** The template's lines for one setting: its doc, what it accepts and its default, commented out. */
function describeKey(field: ConfigField): string {
  const spec = CONFIG_KEYS[field] as { key: string; doc: string; default: unknown; type: ValueType<unknown> };
  const shown = spec.type.format(spec.default);
  const value = shown === '' ? '""' : shown;
  return [`# ${spec.doc}.`, `# Accepts ${spec.type.expected}. Default: ${shown === '' ? '(empty)' : shown}`, `# ${spec.key}=${value}`].join('\n');
}

/**
 * The .ralphrc a project starts from: templates/ralphrc as written, and after it every setting
 * it does not document, made from the setting's own key (an agent added since, whose keys come
 * from its declaration), so each key of a new agent is documented without editing the template.
 */
export function ralphrcTemplate(): string {
  const text = readTemplate('ralphrc');
  const missing = CONFIG_FIELDS.filter((field) => !new RegExp(`^(# )?${CONFIG_KEYS[field].key}=`, 'm').test(text));
  if (missing.length === 0) return text;
  const rule = '# ---------------------------------------------------------------------------';
  return `${text.trimEnd()}\n\n${rule}\n# More agents\n${rule}\n\n${missing.map(describeKey).join('\n\n')}\n`;
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
