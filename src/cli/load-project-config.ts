import { readFileSync } from 'node:fs';
import { loadConfig, type FlagValues, type LoadedConfig } from '../config/load-config.js';
import { errorMessage, UsageError } from '../errors.js';
import { collectSecretValues } from '../core/secret-redactor.js';
import type { RalphPaths } from '../state/paths.js';
import { addSecretValues } from '../state/redaction.js';
import { PROJECT_FILES } from '../state/project-layout.js';

/**
 * Loads the effective configuration of a project: defaults < .ralphrc <
 * environment < flags. Any invalid value stops here with every problem listed
 * (file:line, key, value, what is accepted) and exit code 2.
 */
export function loadProjectConfig(paths: RalphPaths, env: Readonly<Record<string, string | undefined>>, flags: FlagValues): LoadedConfig {
  let ralphrc: { path: string; text: string } | undefined;
  try {
    ralphrc = { path: PROJECT_FILES.ralphrc, text: readFileSync(paths.ralphrc, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`Cannot read .ralphrc: ${errorMessage(error)}`);
  }
  const loaded = loadConfig({ ralphrc, env, flags });
  // A secret given to the verify command by name (`--verify-env NPM_TOKEN=…`) is redacted like one from the environment.
  addSecretValues(collectSecretValues({}, loaded.config.verifyEnv));
  if (loaded.errors.length > 0) {
    const list = loaded.errors.map((e) => `  • ${e}`).join('\n');
    throw new UsageError(`Invalid configuration:\n${list}`, 'Fix the values above (ralph --config shows every setting and where it comes from).');
  }
  return loaded;
}
