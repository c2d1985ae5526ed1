// The bundle `npm run build` leaves in dist/bundle/: each read-only command is
// one file, every path the code builds from its own location is there, and a
// read-only command loads none of Node's heavier modules it does not need.
// Needs `npm run build`.
import { execa } from 'execa';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo } from '../helpers/git-repo.js';
import { cleanEnv, ROOT } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const BUNDLE = join(ROOT, 'dist', 'bundle');
const read = (name: string): string => readFileSync(join(BUNDLE, name), 'utf8');

/** The files of the bundle a file imports before it runs (static imports). */
function staticImports(text: string): string[] {
  return [...text.matchAll(/^import\s[^;]*?from\s*"(\.[^"]+)"|^import\s*"(\.[^"]+)"/gm)].map((m) => (m[1] ?? m[2]) as string);
}

/** The file and every file of the bundle it imports before it runs. */
function loadedBeforeRunning(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const dep of staticImports(read(name))) loadedBeforeRunning(dep.replace(/^\.\//, ''), seen);
  return seen;
}

describe('the bundle of the commands', () => {
  it.each(['ralph.js', 'ralph-status.js'])('%s is one file: it imports no other file before it runs', (name) => {
    expect(staticImports(read(name))).toEqual([]);
  });

  it.each(['ralph.js', 'ralph-status.js', 'ralph-stats.js', 'ralph-monitor.js'])(
    '%s loads no parser (commander) before it runs, in two files at most',
    (name) => {
      const files = [...loadedBeforeRunning(name)];
      expect(files.length).toBeLessThanOrEqual(2);
      for (const file of files) expect(read(file), file).not.toContain('node_modules/commander');
    },
  );

  it('ralph.js loads the status commands or the parser only for the argv that needs them', () => {
    const lazy = [...read('ralph.js').matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(lazy.sort()).toEqual(['./ralph-status.js', './ralph-with-parser.js']);
  });

  it('every file a bundled module finds beside itself exists (the rendered help, the watchdog, the parts of ralph)', () => {
    const wanted = new Set<string>();
    for (const name of readdirSync(BUNDLE).filter((n) => n.endsWith('.js'))) {
      const text = read(name);
      for (const m of text.matchAll(/new URL\("\.\/([^"]+)", import\.meta\.url\)|\bimport\("\.\/([^"]+)"\)|from\s*"\.\/([^"]+)"/g))
        wanted.add((m[1] ?? m[2] ?? m[3]) as string);
    }
    expect(wanted.size).toBeGreaterThan(3);
    for (const file of wanted) expect(existsSync(join(BUNDLE, file)), file).toBe(true);
  });

  it.each(
    [
      ['ralph', '--status'],
      ['ralph', '--status', '--json'],
      ['ralph', '--circuit-status'],
      ['ralph', '--circuit-status', '--json'],
      ['ralph-monitor', '--once'],
      ['ralph-stats'],
    ].map((command) => [command.join(' '), command] as const),
  )('%s in a git repository does not load node:crypto', async (_, [name, ...args]) => {
    const record = join(tempDir(), 'modules.txt');
    const recorder = join(tempDir(), 'record-modules.cjs');
    writeFileSync(recorder, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, process.moduleLoadList.join('\\n')));`);
    await execa(process.execPath, ['--require', recorder, join(ROOT, 'bin', `${name as string}.js`), ...args], {
      cwd: gitRepo(),
      env: cleanEnv(),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    const loaded = readFileSync(record, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule fs');
    expect(loaded).not.toContain('NativeModule crypto');
  });

  it.each([['--status'], ['--status', '--json'], ['--circuit-status'], ['--circuit-status', '--json']])(
    'ralph %s prints through a pipe without creating process.stdout (no net module)',
    async (...args) => {
      const record = join(tempDir(), 'modules.txt');
      const recorder = join(tempDir(), 'record-modules.cjs');
      writeFileSync(recorder, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, process.moduleLoadList.join('\\n')));`);
      const run = await execa(process.execPath, ['--require', recorder, join(ROOT, 'bin', 'ralph.js'), ...args], {
        cwd: gitRepo(),
        env: cleanEnv(),
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      });
      expect(run.exitCode).toBe(0);
      expect(run.stdout.length).toBeGreaterThan(0);
      const loaded = readFileSync(record, 'utf8').split('\n');
      expect(loaded).toContain('NativeModule fs');
      expect(loaded).not.toContain('NativeModule net');
    },
  );
});
