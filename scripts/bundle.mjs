// Bundles each command into dist/bundle/ with esbuild: a command then starts by
// reading a few files instead of resolving and reading about a hundred
// modules. Lazily imported parts (the loop, the MCP server, commander) stay in
// chunks of their own, loaded only by the commands that reach them. Everything
// sits in one folder, so paths code builds from its own location
// (`new URL('./watchdog-main.js', import.meta.url)`, the rendered help) and the
// walk up to package.json and templates/ work from any chunk.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bundle`;
const require = createRequire(import.meta.url);

/**
 * The files node starts: the commands in bin/, the processes Ralph spawns
 * itself, and the parts of a command it loads by argv. Each is a build of its
 * own: a process never loads another's files, so only its own lazy parts split
 * into chunks. A part that hands over to another part names it by its file
 * (`leaves`) and leaves it out of its own build.
 *
 * The read-only commands (`commonjs`) are CommonJS files: Node starts one
 * without its ES module loader, which alone costs more than their answer
 * (an empty .mjs file starts ~8 ms later than an empty .cjs one). They are one
 * file each (what they import lazily is inlined, evaluated only when called)
 * and require the CommonJS parts they hand over to; an ES module part (the
 * parser with every other command, which splits into chunks) is imported.
 */
const COMMANDS = [
  { name: 'ralph', entry: 'src/cli/ralph.ts', commonjs: true, leaves: ['./ralph-status.js', './ralph-with-parser.js'] },
  { name: 'ralph-status', entry: 'src/cli/ralph-status.ts', commonjs: true },
  { name: 'ralph-with-parser', entry: 'src/cli/ralph-with-parser.ts' },
  { name: 'ralph-setup', entry: 'src/cli/ralph-setup.ts' },
  { name: 'ralph-enable', entry: 'src/cli/ralph-enable.ts' },
  { name: 'ralph-import', entry: 'src/cli/ralph-import.ts' },
  { name: 'ralph-monitor', entry: 'src/cli/ralph-monitor.ts', commonjs: true, leaves: ['./ralph-monitor-with-parser.js'] },
  { name: 'ralph-monitor-with-parser', entry: 'src/cli/ralph-monitor-with-parser.ts', commonjs: true },
  { name: 'ralph-stats', entry: 'src/cli/ralph-stats.ts', commonjs: true, leaves: ['./ralph-stats-with-parser.js'] },
  { name: 'ralph-stats-with-parser', entry: 'src/cli/ralph-stats-with-parser.ts', commonjs: true },
  { name: 'monitor-loop-pane', entry: 'src/cli/monitor-loop-pane.ts' },
  { name: 'watchdog-main', entry: 'src/infra/watchdog-main.ts' },
];

/**
 * The packages loaded from node_modules at run time: package.json's `dependencies`, which is
 * all the installed Ralph gets (install.sh: npm ci --omit=dev). Every other package is a
 * devDependency the bundle carries inside itself. Today that is the sandbox runtime alone: it
 * finds its helper programs (seccomp filter, proxy agent) beside its own files, so it is loaded
 * as installed, never copied into a bundle.
 */
const RUNTIME_PACKAGES = Object.keys(JSON.parse(readFileSync(`${root}package.json`, 'utf8')).dependencies ?? {});

const COMMONJS_PARTS = new Set(COMMANDS.filter((c) => c.commonjs).map((c) => `./${c.name}.js`));

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
 * Leaves these paths out of the build: the file is another build, beside this
 * one. An ES module part stays `import(path)`; from a CommonJS build, a
 * CommonJS part is required (`import()` would start the ES module loader).
 */
function leaving(paths, commonjs) {
  const required = (path) => commonjs && COMMONJS_PARTS.has(path);
  return {
    name: 'leave-to-another-build',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.namespace === 'required-part') return { path: args.path, external: true };
        if (!paths.includes(args.path)) return undefined;
        return required(args.path) ? { path: args.path, namespace: 'required-part' } : { path: args.path, external: true };
      });
      b.onLoad({ filter: /.*/, namespace: 'required-part' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path.replace(/\.js$/, '.cjs'))});`,
        loader: 'js',
      }));
    },
  };
}

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

const formatOptions = (commonjs) =>
  commonjs
    ? {
        format: 'cjs',
        outExtension: { '.js': '.cjs' },
        // A CommonJS file has no `import.meta`: its dirname and filename are
        // `__dirname` and `__filename`; its URL is left to the ES module
        // builds (code that reads it in a CommonJS build fails the build).
        define: { 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
        logOverride: { 'empty-import-meta': 'error' },
        plugins: [],
      }
    : { format: 'esm', banner: { js: REQUIRE_BANNER }, plugins: [builtinsThroughRequire] };

rmSync(outdir, { recursive: true, force: true });
await Promise.all(
  COMMANDS.map(({ name, entry, commonjs = false, leaves }) => {
    const { plugins, ...format } = formatOptions(commonjs);
    return build({
      absWorkingDir: root,
      entryPoints: { [name]: entry },
      outdir,
      bundle: true,
      splitting: !commonjs,
      platform: 'node',
      target: 'node22',
      chunkNames: `${name}-[hash]`,
      sourcemap: 'linked',
      external: RUNTIME_PACKAGES,
      ...format,
      plugins: [...plugins, ...(leaves ? [leaving(leaves, commonjs)] : []), sourceWithoutSideEffects],
      logLevel: 'warning',
    });
  }),
);

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
