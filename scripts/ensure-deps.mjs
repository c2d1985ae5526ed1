// `npm test` on a fresh clone: install the dependencies first if they are missing, and the
// Debian packages some tests drive (scripts/install-test-packages.sh) where apt-get can.
import { existsSync } from 'node:fs';
import { execSync, spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url);
if (!existsSync(new URL('../node_modules/.package-lock.json', import.meta.url))) {
  process.stderr.write('Dependencies are missing: running npm ci first...\n');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit', cwd: root });
}
if (process.platform === 'linux') {
  // What is still missing is said by the script; the tests that need it then say so too.
  spawnSync('bash', ['scripts/install-test-packages.sh'], { stdio: 'inherit', cwd: root });
}
