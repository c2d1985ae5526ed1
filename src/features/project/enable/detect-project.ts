import type { ProjectCommands } from '../setup/ralph-layout.js';

/**
 * Project detection for ralph-enable, as a pure function over the
 * files found at the project's top level. Manifests are considered in the
 * original's order with later ones winning (package.json, then Python, then
 * Cargo.toml, then go.mod); a lone requirements.txt only counts when nothing
 * else matched, because many non-Python projects carry one for tooling.
 */
export type ProjectType = 'typescript' | 'javascript' | 'python' | 'rust' | 'go' | 'unknown';

export const PROJECT_TYPES: readonly ProjectType[] = ['typescript', 'javascript', 'python', 'rust', 'go', 'unknown'];

/** Files whose presence matters; the ones in CONTENT_FILES are also read. */
export const DETECTION_FILES = [
  'package.json',
  'tsconfig.json',
  'package-lock.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'pyproject.toml',
  'setup.py',
  'requirements.txt',
  'uv.lock',
  'manage.py',
  'Cargo.toml',
  'go.mod',
] as const;

export const CONTENT_FILES: ReadonlySet<string> = new Set(['package.json', 'pyproject.toml', 'setup.py', 'requirements.txt', 'Cargo.toml', 'go.mod']);

export interface ProjectInfo {
  name: string;
  type: ProjectType;
  /** nextjs, express, react, vue, fastapi, django, flask, or '' */
  framework: string;
  /** npm, yarn, pnpm, bun, uv, pip, cargo, go, or '' */
  packageManager: string;
  commands: ProjectCommands;
  /** The command proposed for VERIFY_COMMAND ('' = nothing to propose). */
  verifyCommand: string;
  /** Things worth telling the user (an unreadable manifest, …). */
  notes: string[];
}

/** path → content ('' for files whose content was not read). */
export type ProjectFiles = ReadonlyMap<string, string>;

const NO_COMMANDS: ProjectCommands = { install: '', build: '', test: '', run: '' };
/** dependency → framework; the first match wins (a Next.js app also depends on react). */
const NODE_FRAMEWORKS: readonly (readonly [string, string])[] = [
  ['next', 'nextjs'],
  ['express', 'express'],
  ['react', 'react'],
  ['vue', 'vue'],
];
const NPM_DEFAULT_TEST = /no test specified/;

function createUnknownProject(folderName: string): ProjectInfo {
  return { name: folderName, type: 'unknown', framework: '', packageManager: '', commands: { ...NO_COMMANDS }, verifyCommand: '', notes: [] };
}

function toStringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) if (typeof item === 'string') out[key] = item;
  return out;
}

function detectNode(files: ProjectFiles, folderName: string): ProjectInfo {
  const info = createUnknownProject(folderName);
  let pkg: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(files.get('package.json') ?? '');
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) pkg = parsed as Record<string, unknown>;
  } catch {
    info.notes.push('package.json is not valid JSON; commands were guessed');
  }
  if (typeof pkg['name'] === 'string' && pkg['name'].trim() !== '') info.name = pkg['name'].trim();
  const deps = new Set([
    ...Object.keys(toStringRecord(pkg['dependencies'])),
    ...Object.keys(toStringRecord(pkg['devDependencies'])),
    ...Object.keys(toStringRecord(pkg['peerDependencies'])),
  ]);
  info.type = deps.has('typescript') || files.has('tsconfig.json') ? 'typescript' : 'javascript';
  info.framework = NODE_FRAMEWORKS.find(([dependency]) => deps.has(dependency))?.[1] ?? '';
  const pm = files.has('bun.lockb') || files.has('bun.lock') ? 'bun' : files.has('pnpm-lock.yaml') ? 'pnpm' : files.has('yarn.lock') ? 'yarn' : 'npm';
  info.packageManager = pm;
  const scripts = toStringRecord(pkg['scripts']);
  const run = (script: string): string => (pm === 'npm' || pm === 'bun' ? `${pm} run ${script}` : `${pm} ${script}`);
  const hasTest = scripts['test'] !== undefined && !NPM_DEFAULT_TEST.test(scripts['test']);
  info.commands = {
    install: `${pm} install`,
    build: scripts['build'] !== undefined ? run('build') : '',
    test: hasTest ? (pm === 'bun' ? 'bun run test' : `${pm} test`) : '',
    run: scripts['start'] !== undefined ? (pm === 'bun' ? 'bun run start' : `${pm} start`) : scripts['dev'] !== undefined ? run('dev') : '',
  };
  if (!hasTest) info.notes.push('package.json has no test script, so no verify command is proposed');
  info.verifyCommand = info.commands.test;
  return info;
}

function matchFirst(text: string | undefined, pattern: RegExp): string | undefined {
  if (text === undefined) return undefined;
  const m = pattern.exec(text);
  return m?.[1]?.trim() || undefined;
}

function detectPython(files: ProjectFiles, folderName: string): ProjectInfo {
  const info = createUnknownProject(folderName);
  info.type = 'python';
  const pyproject = files.get('pyproject.toml');
  const setupPy = files.get('setup.py');
  const requirements = files.get('requirements.txt');
  const name = matchFirst(pyproject, /^\s*name\s*=\s*["']([^"']+)["']/m) ?? matchFirst(setupPy, /\bname\s*=\s*["']([^"']+)["']/);
  if (name) info.name = name;
  const haystack = [pyproject, setupPy, requirements]
    .filter((t) => t !== undefined)
    .join('\n')
    .toLowerCase();
  info.framework = (['fastapi', 'django', 'flask'] as const).find((f) => new RegExp(`(^|[^a-z0-9_-])${f}([^a-z0-9_-]|$)`, 'm').test(haystack)) ?? '';
  const uv = files.has('uv.lock') || /^\s*\[tool\.uv\]/m.test(pyproject ?? '');
  info.packageManager = uv ? 'uv' : 'pip';
  const module = (name ?? 'main').replace(/-/g, '_');
  const py = uv ? 'uv run python' : 'python';
  const run = info.framework === 'django' && files.has('manage.py') ? `${py} manage.py runserver` : `${py} -m ${module}`;
  const install = uv ? 'uv sync' : pyproject !== undefined || setupPy !== undefined ? 'pip install -e .' : 'pip install -r requirements.txt';
  const test = uv ? 'uv run pytest' : 'pytest';
  info.commands = { install, build: '', test, run };
  info.verifyCommand = test;
  return info;
}

function detectRust(files: ProjectFiles, folderName: string): ProjectInfo {
  const info = createUnknownProject(folderName);
  info.type = 'rust';
  info.packageManager = 'cargo';
  const name = matchFirst(files.get('Cargo.toml'), /\[package\][^[]*?^\s*name\s*=\s*["']([^"']+)["']/m);
  if (name) info.name = name;
  info.commands = { install: 'cargo fetch', build: 'cargo build', test: 'cargo test', run: 'cargo run' };
  info.verifyCommand = 'cargo test';
  return info;
}

function detectGo(files: ProjectFiles, folderName: string): ProjectInfo {
  const info = createUnknownProject(folderName);
  info.type = 'go';
  info.packageManager = 'go';
  const module = matchFirst(files.get('go.mod'), /^\s*module\s+(\S+)/m);
  if (module) info.name = module.split('/').filter(Boolean).pop() ?? module;
  info.commands = { install: 'go mod download', build: 'go build ./...', test: 'go test ./...', run: 'go run .' };
  info.verifyCommand = 'go test ./...';
  return info;
}

export function detectProject(files: ProjectFiles, folderName: string): ProjectInfo {
  let info: ProjectInfo | undefined;
  if (files.has('package.json')) info = detectNode(files, folderName);
  if (files.has('pyproject.toml') || files.has('setup.py')) info = detectPython(files, folderName);
  if (files.has('Cargo.toml')) info = detectRust(files, folderName);
  if (files.has('go.mod')) info = detectGo(files, folderName);
  if (info === undefined && files.has('requirements.txt')) info = detectPython(files, folderName);
  return info ?? createUnknownProject(folderName);
}
