import { loadConfig, type FlagValues, type LoadedConfig } from '../config/load-config.js';
import { UsageError } from '../errors.js';
import { collectSecretValues } from '../core/secret-redactor.js';
import type { RalphPaths } from '../state/paths.js';
import { addSecretValues } from '../state/redaction.js';
import { PROJECT_FILES } from '../core/project-layout.js';
import { readRalphrcFile } from '../state/ralphrc-file.js';

/**
 * Loads the effective configuration of a project: defaults < .ralphrc <
 * environment < flags. Any invalid value stops here with every problem listed
 * (file:line, key, value, what is accepted) and exit code 2.
 */
export function loadProjectConfig(paths: RalphPaths, env: Readonly<Record<string, string | undefined>>, flags: FlagValues): LoadedConfig {
  const text = readRalphrcFile(paths.ralphrc, PROJECT_FILES.ralphrc);
  const ralphrc = text === undefined ? undefined : { path: PROJECT_FILES.ralphrc, text };
  const loaded = loadConfig({ ralphrc, env, flags });
  // A secret given to the verify command by name (`--verify-env NPM_TOKEN=…`) is redacted like one from the environment.
  addSecretValues(collectSecretValues({}, loaded.config.verifyEnv));
  if (loaded.errors.length > 0) {
    const list = loaded.errors.map((e) => `  • ${e}`).join('\n');
    throw new UsageError(`Invalid configuration:\n${list}`, 'Fix the values above (ralph --config shows every setting and where it comes from).');
  }
  return loaded;
}
