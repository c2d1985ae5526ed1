// Bundles the commands into dist/bundle/ with esbuild: a command then starts by
// reading a few files instead of resolving and reading about a hundred
// modules. Each command is one ES module build: within it each module, and each
// error class, exists once, so an error thrown in one chunk is `instanceof` its
// class in every other. Lazily imported parts (the loop, the MCP server, the
// dashboard, commander) are chunks of their own, loaded only by the argv that
// reaches them. Everything sits in one
// folder, so paths code builds from its own location
// (`new URL('./watchdog-main.js', import.meta.url)`, the rendered help) and the
// walk up to package.json and templates/ work from any chunk.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bundle`;
const require = createRequire(import.meta.url);

const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));

/**
 * The commands in bin/. src/cli/fast-path.ts starts each: its table's answer,
 * or the command's parser, `program()` of src/cli/<command>.ts.
 */
const BINARIES = Object.keys(manifest.bin);

/** The processes Ralph spawns itself, started from their own file. */
const PROCESSES = { 'monitor-loop-pane': 'src/cli/monitor-loop-pane.ts', 'watchdog-main': 'src/infra/watchdog-main.ts' };

/**
 * The packages loaded from node_modules at run time: package.json's `dependencies`, which is
 * all the installed Ralph gets (install.sh: npm ci --omit=dev). Every other package is a
 * devDependency the bundle carries inside itself. Today that is the sandbox runtime alone: it
 * finds its helper programs (seccomp filter, proxy agent) beside its own files, so it is loaded
 * as installed, never copied into a bundle.
 */
const RUNTIME_PACKAGES = Object.keys(manifest.dependencies ?? {});

/** Each chunk gets a `require` of its own: the CommonJS packages (commander, proper-lockfile) call it for Node's modules. */
const REQUIRE_BANNER = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * `import { readFileSync } from 'node:fs'` makes Node build an ES module view of
 * fs, which reads every export, lazy ones included: that alone loads the
 * stream modules (~4 ms). The bundle takes Node's modules through `require`
 * instead, one export at a time, and drops the exports nobody uses.
 */
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(b) {
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      if (args.kind !== 'import-statement' || !isBuiltin(args.path)) return undefined;
      return { path: args.path.startsWith('node:') ? args.path : `node:${args.path}`, namespace: 'builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => {
      const names = Object.keys(require(args.path)).filter((name) => IDENTIFIER.test(name) && name !== 'default');
      const exports = names.map((name) => `export const ${name} = /* @__PURE__ */ (() => m.${name})();`);
      return { contents: [`const m = require(${JSON.stringify(args.path)});`, 'export default m;', ...exports].join('\n'), loader: 'js' };
    });
  },
};

/**
 * Ralph's own modules do their work when called, never when loaded (no file
 * is imported for what loading it does), so a module none of whose exports a
 * command uses is left out of that command's bundle: a reader that imports
 * the document schemas for one function does not make every command that
 * uses another function build them at start.
 */
const sourceWithoutSideEffects = {
  name: 'source-without-side-effects',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData?.resolving || args.kind === 'entry-point') return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { resolving: true } });
      if (resolved.errors.length > 0 || resolved.external || !resolved.path.startsWith(`${root}src/`)) return undefined;
      return { ...resolved, sideEffects: false };
    });
  },
};

/**
 * The fast path (the CommonJS builds) knows every agent by its declaration
 * (src/backends/agents.ts: names, settings, help lines) and never run one: the code a
 * declaration loads on demand is left out of their files, which would otherwise carry every
 * agent's adapter inline.
 */
const agentCodeLeftOut = {
  name: 'agent-code-left-out',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && args.importer.includes('/src/backends/') ? { path: args.path, namespace: 'agent-code' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'agent-code' }, () => ({
      contents: "throw new Error('This command runs no agent: its code is not in this file.');",
      loader: 'js',
    }));
  },
};

/**
 * The entries made here rather than kept as files in src/: each command's
 * parser (`<command>.js`, an ES module running `program()` of
 * src/cli/<command>.ts), and the fast path every command in
 * bin/ starts with, which hands each argv its table does not answer to that
 * file, left out of its own build.
 */
const entries = {
  name: 'entries',
  setup(b) {
    b.onResolve({ filter: /^entry:/ }, (args) => ({ path: args.path.slice('entry:'.length), namespace: 'entry' }));
    b.onResolve({ filter: /^\.\/ralph[a-z-]*\.js$/, namespace: 'entry' }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: 'entry' }, (args) => {
      // A binary's own fast path hands over to its own parser alone.
      const own = args.path.startsWith('fast-path-') ? args.path.slice('fast-path-'.length) : undefined;
      const parsers = BINARIES.filter((name) => own === undefined || name === own).map(
        (name) => `  ${JSON.stringify(name)}: () => import(${JSON.stringify(`./${name}.js`)}),`,
      );
      const ownPart = OWN_FAST_PATH[own];
      const contents = ownPart
        ? [
            "import { startBinaryWith } from './src/cli/fast-path.ts';",
            "import { packageVersion } from './src/infra/package-info.ts';",
            `import * as part from './${Object.keys(FAST_PARTS).find((path) => FAST_PARTS[path] === ownPart.file)}';`,
            `const parsers = {\n${parsers.join('\n')}\n};`,
            `export function start(binary) { void startBinaryWith(binary, parsers[binary], { version: () => Promise.resolve({ packageVersion }), ${ownPart.key}: () => Promise.resolve(part) }); }`,
          ]
        : args.path.startsWith('fast-path')
          ? [
              "import { startBinary } from './src/cli/fast-path.ts';",
              `const parsers = {\n${parsers.join('\n')}\n};`,
              'export function start(binary) { void startBinary(binary, parsers[binary]); }',
            ]
          : [`import { program } from './src/cli/${args.path}.ts';`, 'void program();'];
      return { contents: contents.join('\n'), resolveDir: root, loader: 'ts' };
    });
  },
};

/**
 * The answers of the fast path that read a project (status, stats, one
 * monitor frame) are CommonJS files of their own, required by the one that
 * answers: --version and --help never read them, and a process runs one
 * answer, so it holds one copy of each class.
 */
const FAST_PARTS = {
  'src/cli/commands/status-commands.ts': 'fast-status',
  'src/cli/commands/stats-command.ts': 'fast-stats',
  'src/cli/monitor-process.ts': 'fast-monitor',
};

/**
 * The binaries whose fast answers all read a project start from a fast path of their own with
 * their answer inside it (`fast-path-<binary>.cjs`): a second file to resolve, read and compile
 * cost `ralph-monitor --once` about 3 ms of CPU, more than compiling the answer costs their
 * --version and --help. The other commands start from fast-path.cjs, whose answers that read a
 * project are required from their own files.
 */
const OWN_FAST_PATH = { 'ralph-monitor': { file: 'fast-monitor', key: 'monitor' }, 'ralph-stats': { file: 'fast-stats', key: 'stats' } };

/**
 * In a binary's own fast path, fast-path.ts's loaders of the parts (IMPORTED_PARTS) are never
 * used and left out, but esbuild decides before leaving them out that every module a dynamic
 * import reaches runs in a lazy wrapper of its own, compiled twice. They stay outside the build.
 */
const partLoadersOutside = {
  name: 'part-loaders-outside',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && args.importer === `${root}src/cli/fast-path.ts` ? { path: args.path, external: true } : undefined,
    );
  },
};

const requiredParts = {
  name: 'required-parts',
  setup(b) {
    b.onResolve({ filter: /^\./ }, async (args) => {
      if (args.namespace === 'required-part') return { path: args.path, external: true };
      if (args.kind !== 'dynamic-import' || args.pluginData?.resolving) return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { resolving: true } });
      const part = FAST_PARTS[resolved.path.slice(root.length)];
      return part === undefined ? undefined : { path: `./${part}.cjs`, namespace: 'required-part' };
    });
    b.onLoad({ filter: /.*/, namespace: 'required-part' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

const shared = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node22',
  sourcemap: 'linked',
  external: RUNTIME_PACKAGES,
  logLevel: 'warning',
};

rmSync(outdir, { recursive: true, force: true });
await Promise.all([
  // One build per command and per spawned process: a process loads one build's files alone, so
  // within it each module, and each error class, exists once, and a build of its own splits
  // into fewer, larger chunks than one build of everything (fewer files to start).
  ...[...BINARIES.map((name) => [name, `entry:${name}`]), ...Object.entries(PROCESSES)].map(([name, entry]) =>
    build({
      ...shared,
      entryPoints: { [name]: entry },
      splitting: true,
      format: 'esm',
      chunkNames: `${name}-[hash]`,
      banner: { js: REQUIRE_BANNER },
      plugins: [entries, builtinsThroughRequire, sourceWithoutSideEffects],
    }),
  ),
  /**
   * `import { runLoop } from 'ralph-ts'` (package.json `exports`): the library, an ES module
   * build of its own beside the commands', its types in dist/types (tsconfig.types.json).
   */
  build({
    ...shared,
    entryPoints: { library: 'src/library/index.ts' },
    splitting: true,
    format: 'esm',
    chunkNames: 'library-[hash]',
    banner: { js: REQUIRE_BANNER },
    plugins: [builtinsThroughRequire, sourceWithoutSideEffects],
  }),
  /**
   * The fast path is CommonJS: Node starts a CommonJS file without its ES
   * module loader, and `npm run bench` shows what that saves (docs/architecture.md
   * has the figures). A CommonJS file has no `import.meta`: its dirname and
   * filename are `__dirname` and `__filename`; code that reads its URL fails
   * this build.
   */
  ...['fast-path', ...Object.keys(OWN_FAST_PATH).map((binary) => `fast-path-${binary}`), ...Object.values(FAST_PARTS)].map((name) =>
    build({
      ...shared,
      entryPoints: { [name]: name.startsWith('fast-path') ? `entry:${name}` : Object.keys(FAST_PARTS).find((path) => FAST_PARTS[path] === name) },
      format: 'cjs',
      outExtension: { '.js': '.cjs' },
      define: { 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
      logOverride: { 'empty-import-meta': 'error' },
      plugins: [
        entries,
        ...(name === 'fast-path' ? [requiredParts] : name.startsWith('fast-path-') ? [partLoadersOutside] : []),
        agentCodeLeftOut,
        sourceWithoutSideEffects,
      ],
    }),
  ),
]);

/**
 * The page of `ralph dashboard`: its script and styles (with the chart
 * library) built for the browser into dist/bundle/dashboard/, beside its
 * index.html. The installed ralph serves these files and fetches nothing.
 */
const dashboardDir = `${outdir}/dashboard`;
mkdirSync(dashboardDir, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: { app: 'web/dashboard/main.ts', style: 'web/dashboard/style.css' },
  outdir: dashboardDir,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  minify: true,
  sourcemap: 'linked',
  logLevel: 'warning',
});
copyFileSync(`${root}web/dashboard/index.html`, `${dashboardDir}/index.html`);
