// The integration tier drives the real agent CLIs, which live in tests/agent-clis/ (not in the
// root install): this installs them before the tier runs when they are missing or older than
// their lockfile, and does nothing otherwise.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

export function setup(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'install-agent-clis.mjs')], { cwd: ROOT, stdio: 'inherit' });
}
