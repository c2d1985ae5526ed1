// `npm test` on a fresh clone: install the dependencies first if they are missing.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

if (!existsSync(new URL('../node_modules/.package-lock.json', import.meta.url))) {
  process.stderr.write('Dependencies are missing: running npm ci first...\n');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
}
