import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('paths named in the source', () => {
  it('every test, doc or script a comment in src/ points a reader to exists', () => {
    const missing: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'src'))) {
      // Comments only: strings in the code name files of the user's project (`docs/prd.md` in an example).
      const comments = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /^\s*(\*|\/\/|\/\*)/.test(line))
        .join('\n');
      for (const match of comments.matchAll(/\b((?:tests|docs|scripts|bench)\/[\w./-]+\.(?:ts|md|mjs|json))\b/g)) {
        const named = match[1] as string;
        if (!existsSync(join(ROOT, named))) missing.push(`${relative(ROOT, file)}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every module a benchmark imports from the build is still in src/', () => {
    const missing: string[] = [];
    for (const name of readdirSync(join(ROOT, 'bench')).filter((f) => f.endsWith('.mjs'))) {
      const text = readFileSync(join(ROOT, 'bench', name), 'utf8');
      for (const match of text.matchAll(/'\.\.\/dist\/([\w/.-]+)\.js'/g)) {
        const source = join('src', `${match[1] as string}.ts`);
        if (!existsSync(join(ROOT, source))) missing.push(`bench/${name}: ${source}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
