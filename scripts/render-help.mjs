// Writes each command's `--help` as the bundled command prints it to a pipe, so later runs
// answer --help without loading commander (src/cli/fast-path.ts). The old texts are removed
// first: each command then renders its help through commander, never from a stale copy.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BINARIES = Object.keys(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).bin);
const bundle = (name) => fileURLToPath(new URL(`../dist/bundle/${name}`, import.meta.url));

for (const name of BINARIES) rmSync(bundle(`${name}-help.txt`), { force: true });
for (const name of BINARIES) {
  const help = execFileSync(process.execPath, [bundle(`${name}.js`), '--help'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  writeFileSync(bundle(`${name}-help.txt`), help);
}
