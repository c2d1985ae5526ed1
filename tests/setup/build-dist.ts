// Integration and e2e tests spawn the built commands (bin/*.js → dist/). This
// builds dist/ before they run whenever a source is newer than the last build,
// so `npx vitest run tests/integration/x.test.ts` never tests stale code.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** Emitted by every full build (tsc rewrites each output file), so its age is the build's. */
const BUILD_MARK = join(ROOT, 'dist', 'cli', 'ralph.js');

function mtimeOrZero(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : mtimeOrZero(path));
  }
  return newest;
}

export function setup(): void {
  const inputs = Math.max(newestSource(join(ROOT, 'src')), ...['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => mtimeOrZero(join(ROOT, f))));
  if (mtimeOrZero(BUILD_MARK) > inputs) return;
  process.stderr.write('dist/ is older than src/: building first (npm run build)\n');
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
}
