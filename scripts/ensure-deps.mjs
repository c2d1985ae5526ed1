// `npm test` on a fresh clone: check that this Node.js is one Ralph supports, then install the npm
// dependencies first when they are missing. It never installs system packages: a test that needs
// bubblewrap, socat, ripgrep or a browser finds what this machine has, or skips and says what to
// install (.ci/run installs them, on purpose). The agent CLIs the integration tier drives are
// installed by that tier's setup (tests/agent-clis).
import { existsSync, readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';

const root = new URL('..', import.meta.url);
const wanted = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node.replace('>=', '');
const [major, minor] = process.versions.node.split('.').map(Number);
const [needMajor, needMinor] = wanted.split('.').map(Number);
if (major < needMajor || (major === needMajor && minor < needMinor)) {
  process.stderr.write(
    `Ralph needs Node.js ${wanted} or newer (package.json engines); this is ${process.version}.\n` +
      `Install a newer Node.js (https://nodejs.org, or your package manager), then run npm test again.\n`,
  );
  process.exit(1);
}
if (!existsSync(new URL('../node_modules/.package-lock.json', import.meta.url))) {
  process.stderr.write('Dependencies are missing: running npm ci first...\n');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit', cwd: root });
}
