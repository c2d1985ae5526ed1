// The integration tier drives the real agent CLIs, which live in tests/agent-clis/ (not in the
// root install), and the sandbox runtime of --sandbox, which lives in sandbox-runtime/: this
// installs both before the tier runs when they are missing or older than their lockfiles, and
// does nothing otherwise.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

export function setup(): void {
  for (const script of ['install-agent-clis.mjs', 'install-sandbox-runtime.mjs']) {
    execFileSync(process.execPath, [join(ROOT, 'scripts', script)], { cwd: ROOT, stdio: 'inherit' });
  }
}
