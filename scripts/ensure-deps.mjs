// `npm test` on a fresh clone: install the npm dependencies first when they are missing. It never
// installs system packages: a test that needs bubblewrap, socat, ripgrep or a browser finds what
// this machine has, or skips and says what to install (.ci/run installs them, on purpose). The
// agent CLIs the integration tier drives are installed by that tier's setup (tests/agent-clis).
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const root = new URL('..', import.meta.url);
if (!existsSync(new URL('../node_modules/.package-lock.json', import.meta.url))) {
  process.stderr.write('Dependencies are missing: running npm ci first...\n');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit', cwd: root });
}
