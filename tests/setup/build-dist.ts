// Integration and e2e tests spawn the built commands (bin/*.js → dist/bundle/). This
// builds dist/ before they run whenever a source is newer than the last build,
// so `npx vitest run tests/integration/x.test.ts` never tests stale code.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
/**
 * The first and the last file a full build writes (tsc rewrites each output
 * file, the help is rendered from the finished bundle): the older one's age is the build's.
 */
const BUILD_MARKS = [join(ROOT, 'dist', 'cli', 'fast-path.js'), join(ROOT, 'dist', 'bundle', 'ralph-help.txt')];

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
  const inputs = Math.max(
    newestSource(join(ROOT, 'src')),
    newestSource(join(ROOT, 'web')),
    ...['tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/bundle.mjs', 'scripts/render-help.mjs'].map((f) => mtimeOrZero(join(ROOT, f))),
  );
  if (Math.min(...BUILD_MARKS.map(mtimeOrZero)) > inputs) return;
  process.stderr.write('dist/ is older than src/: building first (npm run build)\n');
  const node = (...args: string[]): void => {
    execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  };
  node(join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json');
  node(join(ROOT, 'scripts', 'bundle.mjs'));
  node(join(ROOT, 'scripts', 'render-help.mjs'));
}
