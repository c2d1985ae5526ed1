// tsc -p tsconfig.types.json declares every module the library reaches, most of them private:
// the package ships only the declarations its public entry (dist/types/library/index.d.ts)
// refers to, file by file, and this removes the rest.
import { existsSync, readFileSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const types = fileURLToPath(new URL('../dist/types', import.meta.url));
const entry = join(types, 'library', 'index.d.ts');

/** Relative module names a declaration file refers to: `from '…'` and `import('…')`. */
const REFERENCE = /(?:from\s+|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g;

const kept = new Set();
const pending = [entry];
while (pending.length > 0) {
  const file = pending.pop();
  if (kept.has(file)) continue;
  if (!existsSync(file)) throw new Error(`${file} is referred to but was not declared: is it in tsconfig.types.json's program?`);
  kept.add(file);
  for (const [, name] of readFileSync(file, 'utf8').matchAll(REFERENCE)) {
    pending.push(resolve(dirname(file), name.replace(/\.js$/, '.d.ts')));
  }
}

/** Removes what is not kept, and the folders that leaves empty. */
function prune(dir) {
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) {
      prune(path);
      if (readdirSync(path).length === 0) rmdirSync(path);
    } else if (!kept.has(path)) rmSync(path);
  }
}
prune(types);
