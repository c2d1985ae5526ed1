import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ExitCode, RalphError } from '../errors.js';

// Cache: the installed package's directory and version, fixed for the life of the process; never invalidated.
let cachedRoot: string | undefined;
// Cache: (as above) the installed package's version.
let cachedVersion: string | undefined;

/**
 * The directory of the installed Ralph package (holds bin/, dist/, templates/):
 * the nearest ancestor of this module with both package.json and templates/.
 * Found from the module's own location, never from the current directory, so a
 * stray `templates/` folder where the user runs a command cannot hijack it
 * (as one could in the original).
 */
export function packageRoot(): string {
  if (cachedRoot !== undefined) return cachedRoot;
  const start = import.meta.dirname;
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'templates'))) {
      cachedRoot = dir;
      return dir;
    }
    if (dirname(dir) === dir) {
      throw new RalphError(
        `Ralph's installation is incomplete: no directory above ${start} holds both package.json and templates/.`,
        ExitCode.RuntimeError,
        'Reinstall Ralph (./install.sh in a checkout).',
      );
    }
  }
}

/** The version in Ralph's own package.json (for --version). */
export function packageVersion(): string {
  if (cachedVersion === undefined) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'));
      cachedVersion = typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string' ? pkg.version : '0.0.0';
    } catch {
      cachedVersion = '0.0.0';
    }
  }
  return cachedVersion;
}
