import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * src/checkpoints has one public face, its index.ts: the rest of Ralph never
 * reaches into the room, so what is inside can change without a caller noticing.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SRC = join(ROOT, 'src');
const ROOM = join(SRC, 'checkpoints');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The files of src/ a file imports (relative specifiers only). */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts')));
}

const outside = sourceFiles(SRC).filter((path) => !path.startsWith(`${ROOM}/`));

describe('the checkpoints room', () => {
  it('finds the imports it checks', () => {
    expect(importsOf(join(SRC, 'x', 'a.ts'), "import { a } from '../checkpoints/index.js';\nimport type { B } from './b.js';")).toEqual([
      join(ROOM, 'index.ts'),
      join(SRC, 'x', 'b.ts'),
    ]);
  });

  it('no file outside it imports anything of src/checkpoints but its index.ts', () => {
    const reaching = outside.flatMap((path) =>
      importsOf(path, readFileSync(path, 'utf8'))
        .filter((target) => target.startsWith(`${ROOM}/`) && target !== join(ROOM, 'index.ts'))
        .map((target) => `${relative(ROOT, path)} → ${relative(ROOT, target)}`),
    );
    expect(reaching).toEqual([]);
  });
});
