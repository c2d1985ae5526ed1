import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md: src/core and src/engine decide, they do not act. They
 * never import the file system, child processes or terminal libraries, and
 * src/core never reads the clock or the process itself.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const FORBIDDEN_IMPORTS = /from\s+'(node:)?(fs|fs\/promises|child_process)'|from\s+'(execa|chalk|ora|commander|proper-lockfile)'|import\(\s*'(node:)?(fs|child_process)'/;
const IMPURE_CORE = /Date\.now\(\)|new Date\(\)|Math\.random\(|process\.(env|exit|stdout|stderr|cwd|argv|on)\b|setTimeout\(|setInterval\(/;

const files = (area: string): Array<[string, string]> => sourceFiles(join(ROOT, 'src', area)).map((path) => [relative(ROOT, path), readFileSync(path, 'utf8')]);

describe('architecture', () => {
  it('the rules recognise what they forbid', () => {
    for (const line of ["import { readFileSync } from 'node:fs';", "import { execa } from 'execa';", "import chalk from 'chalk';", "import { spawn } from 'child_process';", "await import('node:fs')"]) {
      expect(line).toMatch(FORBIDDEN_IMPORTS);
    }
    expect("import type { X } from './x.js';").not.toMatch(FORBIDDEN_IMPORTS);
    for (const line of ['const t = Date.now();', 'new Date()', 'Math.random()', 'process.env.HOME', 'setTimeout(f, 1)']) expect(line).toMatch(IMPURE_CORE);
    expect('new Date(ms).toISOString()').not.toMatch(IMPURE_CORE);
  });

  it('src/core and src/engine exist', () => {
    expect(files('core').length).toBeGreaterThan(10);
    expect(files('engine').length).toBeGreaterThan(0);
  });

  it.each([...files('core'), ...files('engine')])('%s imports no fs, child_process, execa, chalk, ora or commander', (_path, text) => {
    expect(text).not.toMatch(FORBIDDEN_IMPORTS);
  });

  it.each(files('core'))('%s reads no clock, randomness, timers or process state', (_path, text) => {
    expect(text).not.toMatch(IMPURE_CORE);
  });

  it.each(files('core'))('%s uses .js import specifiers and named exports only', (_path, text) => {
    expect(text).not.toMatch(/from\s+'\.{1,2}\/[^']*(?<!\.js)'/);
    expect(text).not.toMatch(/export\s+default\b/);
  });
});
