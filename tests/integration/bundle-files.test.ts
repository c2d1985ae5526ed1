// The bundle `npm run build` leaves in dist/bundle/: the fast path every command
// starts with is CommonJS (Node starts it without its ES module loader) and
// hands every other argv to one ES module build where each module, and each
// error class, exists once; every path the code builds from its own location
// is there, and a read-only command loads none of Node's heavier modules it
// does not need.
// Needs `npm run build`.
import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo } from '../helpers/git-repo.js';
import { cleanEnv, ROOT } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const BUNDLE = join(ROOT, 'dist', 'bundle');
const read = (name: string): string => readFileSync(join(BUNDLE, name), 'utf8');

/** Runs a command in a git repository with a recorder preloaded; what it loaded: Node's own modules and the files it required. */
async function loadedBy(name: string, args: readonly string[]): Promise<{ modules: string[]; files: string[]; stdout: string; exitCode: number | undefined }> {
  const record = join(tempDir(), 'loaded.json');
  const recorder = join(tempDir(), 'record-loaded.cjs');
  writeFileSync(
    recorder,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify({ modules: process.moduleLoadList, files: Object.keys(require.cache) })));`,
  );
  const cwd = gitRepo();
  // Figures for ralph-stats to print.
  mkdirSync(join(cwd, '.ralph', 'logs'), { recursive: true });
  writeFileSync(
    join(cwd, '.ralph', 'logs', 'metrics.jsonl'),
    `${JSON.stringify({ timestamp: '2026-01-01T10:00:00+00:00', loop: 1, duration: 30, success: true, calls: 1 })}\n`,
  );
  const run = await execa(process.execPath, ['--require', recorder, join(ROOT, 'bin', `${name}.js`), ...args], {
    cwd,
    env: cleanEnv(),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  const loaded = JSON.parse(readFileSync(record, 'utf8')) as { modules: string[]; files: string[] };
  return { ...loaded, files: loaded.files.filter((f) => f !== recorder).map((f) => relative(ROOT, f)), stdout: run.stdout, exitCode: run.exitCode };
}

describe('the bundle of the commands', () => {
  const FAST = 'dist/bundle/fast-path.cjs';
  it.each([
    ['ralph', ['--version'], [FAST]],
    ['ralph', ['--help'], [FAST]],
    ['ralph-stats', ['--help'], [FAST]],
    ['ralph-monitor', ['--version'], [FAST]],
    ['ralph', ['--status'], [FAST, 'dist/bundle/fast-status.cjs']],
    ['ralph', ['--status', '--json'], [FAST, 'dist/bundle/fast-status.cjs']],
    ['ralph', ['--circuit-status'], [FAST, 'dist/bundle/fast-status.cjs']],
    // The monitor and the stats start from a fast path of their own, their answer inside it.
    ['ralph-monitor', ['--once'], ['dist/bundle/fast-path-ralph-monitor.cjs']],
    ['ralph-monitor', ['--json'], ['dist/bundle/fast-path-ralph-monitor.cjs']],
    ['ralph-stats', [], ['dist/bundle/fast-path-ralph-stats.cjs']],
    ['ralph-stats', ['--json'], ['dist/bundle/fast-path-ralph-stats.cjs']],
  ] as const)('%s %j reads only its CommonJS files, without the ES module loader or the parser', async (name, args, files) => {
    const loaded = await loadedBy(name, args);
    expect(loaded.stdout.length).toBeGreaterThan(0);
    expect(loaded.files).toEqual([`bin/${name}.js`, ...files]);
    expect(loaded.modules).not.toContain('NativeModule internal/modules/esm/module_job');
    for (const file of files) expect(read(file.replace('dist/bundle/', '')), file).not.toContain('node_modules/commander');
  });

  it.each([
    ['ralph', ['--bogus']],
    ['ralph-monitor', ['--interval', '1', '--once']],
    ['ralph-stats', ['--project', '.']],
    ['ralph-setup', ['--bogus']],
    ['ralph-monitor', ['--bogus']],
    ['ralph-stats', ['--help', '--json']],
  ] as const)('%s %j hands over to the ES module build with the parser', async (name, args) => {
    const loaded = await loadedBy(name, args);
    // bin/ picks the fast path by argv: the monitor's for a frame, the stats' but for --help and --version.
    const words: readonly string[] = args;
    const own =
      (name === 'ralph-monitor' && words.includes('--once')) || (name === 'ralph-stats' && !words.includes('--help'))
        ? `dist/bundle/fast-path-${name}.cjs`
        : 'dist/bundle/fast-path.cjs';
    expect(loaded.files).toEqual([`bin/${name}.js`, own]);
    expect(loaded.modules).toContain('NativeModule internal/modules/esm/module_job');
  });

  it.each(['fast-path.cjs', 'fast-status.cjs', 'fast-monitor.cjs', 'fast-stats.cjs', 'fast-path-ralph-monitor.cjs', 'fast-path-ralph-stats.cjs'])(
    "%s holds no agent backend's code (the settings know the agents by their declarations only)",
    (name) => {
      const modules = [...read(name).matchAll(/^\s*\/\/ (src\/[^\s]+\.ts)$/gm)].map((m) => m[1]);
      expect(modules.length).toBeGreaterThan(5);
      const declarations = /^src\/backends\/(agents|agent-declaration|\w+\/\w+-(agent|sandbox))\.ts$/;
      expect(modules.filter((path) => path?.startsWith('src/backends/') && !declarations.test(path))).toEqual([]);
    },
  );

  it("fast-path.cjs requires the answers that read a project and imports each command's parser, only for the argv that needs them", () => {
    const text = read('fast-path.cjs');
    expect([...text.matchAll(/\brequire\("(\.[^"]+)"\)/g)].map((m) => m[1])).toEqual(['./fast-status.cjs', './fast-stats.cjs', './fast-monitor.cjs']);
    expect([...text.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]).sort()).toEqual(
      ['ralph', 'ralph-enable', 'ralph-import', 'ralph-monitor', 'ralph-setup', 'ralph-stats'].map((name) => `./${name}.js`).sort(),
    );
  });

  it.each(['ralph', 'ralph-setup', 'ralph-enable', 'ralph-import', 'ralph-monitor', 'ralph-stats'])(
    "%s.js and every chunk it can load define each of Ralph's error classes at most once",
    (command) => {
      const files = new Set<string>();
      const visit = (file: string): void => {
        if (files.has(file)) return;
        files.add(file);
        for (const m of read(file).matchAll(/(?:\bimport\(|\bfrom\s*|^import\s*)"\.\/([^"]+\.js)"/gm)) visit(m[1] as string);
      };
      visit(`${command}.js`);
      for (const name of ['RalphError', 'UsageError', 'NotAProjectError', 'OddFileError', 'ToolError', 'CheckpointError']) {
        const defining = [...files].filter((file) => new RegExp(`\\b${name} = class\\b`).test(read(file)));
        expect(defining.length, `${name}: ${defining.join(', ')}`).toBeLessThanOrEqual(1);
      }
      expect([...files].filter((file) => /\bRalphError = class\b/.test(read(file)))).toHaveLength(1);
    },
  );

  it.each(['ralph-monitor', 'ralph-stats'])(
    "%s's own fast path runs its answer's modules once, not each in a lazy wrapper, and imports its own parser alone",
    (name) => {
      const text = read(`fast-path-${name}.cjs`);
      expect(text).not.toMatch(/__esm\(\{/);
      expect([...text.matchAll(/\b(?:import|require)\("([^"]+)"\)/g)].map((m) => m[1]).filter((path) => path?.startsWith('.'))).toEqual([`./${name}.js`]);
    },
  );

  it("the fast path defines no class before it hands over to a command's ES module build", () => {
    // In fast-path.cjs a class is made inside the lazily run part that needs it (esbuild's init_…), never at the top.
    expect(read('fast-path.cjs')).toMatch(/^\s+RalphError = class\b/m);
    expect(read('fast-path.cjs')).not.toMatch(/^var \w+ = class\b/m);
  });

  it('every file a bundled module finds beside itself exists (the rendered help, the watchdog, the parts of a command)', () => {
    const wanted = new Set<string>();
    for (const name of readdirSync(BUNDLE).filter((n) => n.endsWith('.js') || n.endsWith('.cjs'))) {
      const text = read(name);
      for (const m of text.matchAll(
        /new URL\("\.\/([^"]+)", import\.meta\.url\)|\b(?:import|require)\("\.\/([^"]+)"\)|from\s*"\.\/([^"]+)"|\(__dirname, "([^"]+)"\)/g,
      ))
        wanted.add((m[1] ?? m[2] ?? m[3] ?? m[4]) as string);
    }
    for (const file of ['fast-status.cjs', 'ralph.js', 'ralph-setup.js', 'watchdog-main.js']) expect(wanted).toContain(file);
    for (const file of wanted) expect(existsSync(join(BUNDLE, file)), file).toBe(true);
    for (const name of ['ralph', 'ralph-setup', 'ralph-enable', 'ralph-import', 'ralph-monitor', 'ralph-stats'])
      expect(existsSync(join(BUNDLE, `${name}-help.txt`)), name).toBe(true);
  });

  it('the dashboard is a part of its own: another command through the parser loads neither its server nor its page', async () => {
    const chunks = readdirSync(BUNDLE).filter((n) => n.endsWith('.js') && read(n).includes('x-ralph-token'));
    expect(chunks).toHaveLength(1);
    const importers = readdirSync(BUNDLE).filter((n) => n.endsWith('.js') && read(n).includes(`"./${chunks[0] ?? ''}"`));
    // Only ralph's parser names it, in a lazy import() of the dashboard command.
    expect(importers).toEqual(['ralph.js']);
    for (const name of importers) expect(read(name)).toMatch(new RegExp(`import\\("\\./${(chunks[0] ?? '').replace('.', '\\.')}"\\)`));
    const config = await loadedBy('ralph', ['--config']);
    expect(config.exitCode).toBe(0);
    expect(config.modules).not.toContain('NativeModule http');
    for (const file of ['index.html', 'app.js', 'style.css']) expect(existsSync(join(BUNDLE, 'dashboard', file)), file).toBe(true);
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
    const { modules } = await loadedBy(name as string, args);
    expect(modules).toContain('NativeModule fs');
    expect(modules).not.toContain('NativeModule crypto');
  });

  it.each(
    [
      ['ralph', '--status'],
      ['ralph', '--status', '--json'],
      ['ralph', '--circuit-status'],
      ['ralph', '--circuit-status', '--json'],
      ['ralph-monitor', '--once'],
      ['ralph-monitor', '--json'],
      ['ralph-stats'],
      ['ralph-stats', '--json'],
    ].map((command) => [command.join(' '), command] as const),
  )('%s prints through a pipe without creating process.stdout (no net module)', async (_, [name, ...args]) => {
    const run = await loadedBy(name as string, args);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(0);
    expect(run.modules).toContain('NativeModule fs');
    expect(run.modules).not.toContain('NativeModule net');
  });
});
