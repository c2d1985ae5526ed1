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

const FORBIDDEN_IMPORTS =
  /from\s+'(node:)?(fs|fs\/promises|child_process)'|from\s+'(execa|chalk|ora|commander|proper-lockfile)'|import\(\s*'(node:)?(fs|child_process)'/;
const IMPURE_CORE = /Date\.now\(\)|new Date\(\)|Math\.random\(|process\.(env|exit|stdout|stderr|cwd|argv|on)\b|setTimeout\(|setInterval\(/;

const files = (area: string): Array<[string, string]> => sourceFiles(join(ROOT, 'src', area)).map((path) => [relative(ROOT, path), readFileSync(path, 'utf8')]);

describe('architecture', () => {
  it('the rules recognise what they forbid', () => {
    for (const line of [
      "import { readFileSync } from 'node:fs';",
      "import { execa } from 'execa';",
      "import chalk from 'chalk';",
      "import { spawn } from 'child_process';",
      "await import('node:fs')",
    ]) {
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

/** Static (non-type) relative imports of a source file, resolved to .ts paths. */
function staticImports(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)) {
    const spec = m[1] as string;
    out.push(spec.startsWith('.') ? resolve(dirname(path), spec.replace(/\.js$/, '.ts')) : spec);
  }
  return out;
}

/** Every package reachable through static imports from an entry file. */
function reachablePackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const dep of staticImports(file)) {
      if (dep.startsWith('/')) visit(dep);
      else packages.add(dep);
    }
  };
  visit(entry);
  return packages;
}

describe('cold start: a read-only command loads only what answers it', () => {
  const PARSER_AND_LOOP = ['commander', 'proper-lockfile', 'ora', 'chalk', 'zod', '@modelcontextprotocol/sdk', 'node:child_process'];

  it.each(['src/cli/fast-path.ts', 'src/cli/commands/state-commands.ts'])('%s loads no heavy library statically (they are imported lazily)', (entry) => {
    const packages = reachablePackages(join(ROOT, entry));
    for (const heavy of ['proper-lockfile', 'ora', 'zod', '@modelcontextprotocol/sdk']) expect(packages.has(heavy), `${entry} reaches ${heavy}`).toBe(false);
  });

  it('src/cli/fast-path.ts loads no package before it knows the arguments need the parser (--help and --version answer without commander)', () => {
    expect([...reachablePackages(join(ROOT, 'src/cli/fast-path.ts'))].sort()).toEqual(['node:fs', 'node:path']);
  });

  it.each(['src/cli/commands/status-commands.ts', 'src/cli/commands/stats-command.ts', 'src/cli/monitor-process.ts'])(
    '%s loads no parser, lock, git, terminal library or process before it knows the arguments need one',
    (entry) => {
      const packages = reachablePackages(join(ROOT, entry));
      for (const heavy of PARSER_AND_LOOP) expect(packages.has(heavy), `${entry} reaches ${heavy}`).toBe(false);
    },
  );
});

/** The package a bare import specifier names ('@scope/name/sub' → '@scope/name'); undefined for a Node builtin. */
function packageOf(spec: string): string | undefined {
  if (spec.startsWith('node:')) return undefined;
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The packages the bundle carries inside itself (scripts/bundle.mjs): devDependencies, since the
 * installed Ralph never loads them from node_modules. Adding one here is a choice to ship its code
 * to every user; a test-only package (execa drives the built commands in tests) never belongs here.
 */
const BUNDLED = ['@modelcontextprotocol/sdk', '@octokit/rest', 'chalk', 'commander', 'get-east-asian-width', 'ora', 'proper-lockfile', 'valibot', 'zod'];

describe('dependencies', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  // Loaded from node_modules at run time. There are none: the bundle carries every package Ralph
  // imports, and the sandbox runtime is a package of its own (sandbox-runtime/), loaded by path.
  const runtime = new Set(Object.keys(manifest.dependencies ?? {}));

  it('the installed Ralph needs no npm install: it has no runtime dependencies', () => {
    expect([...runtime]).toEqual([]);
  });
  const allowed = new Set([...runtime, ...BUNDLED]);

  it('the bundled packages are build-time dependencies only', () => {
    for (const name of BUNDLED) {
      expect(Object.keys(manifest.devDependencies), name).toContain(name);
      expect(runtime.has(name), name).toBe(false);
    }
  });

  it.each(files(''))('%s imports only runtime or bundled dependencies', (_path, text) => {
    for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^'.][^']*)'|^import\s+'([^'.][^']*)'|\bimport\(\s*'([^'.][^']*)'\s*\)/gm)) {
      const name = packageOf((m[1] ?? m[2] ?? m[3]) as string);
      if (name !== undefined) expect(allowed, `imports ${name}`).toContain(name);
    }
  });
});
