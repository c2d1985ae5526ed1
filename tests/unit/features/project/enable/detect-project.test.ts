import { describe, expect, it } from 'vitest';
import { detectProject, type ProjectInfo } from '../../../../../src/features/project/enable/detect-project.js';

type Expected = Partial<Omit<ProjectInfo, 'commands' | 'notes'>> & { commands?: Partial<ProjectInfo['commands']> };

const pkg = (value: unknown): string => JSON.stringify(value);

const CASES: [string, Record<string, string>, Expected][] = [
  ['empty folder', {}, { name: 'folder', type: 'unknown', framework: '', verifyCommand: '', commands: { test: '', build: '' } }],
  [
    'TypeScript via dependency, npm, all scripts',
    { 'package.json': pkg({ name: 'web', scripts: { build: 'tsc', test: 'vitest run', start: 'node dist' }, devDependencies: { typescript: '5' } }) },
    {
      name: 'web',
      type: 'typescript',
      packageManager: 'npm',
      verifyCommand: 'npm test',
      commands: { install: 'npm install', build: 'npm run build', test: 'npm test', run: 'npm start' },
    },
  ],
  ['TypeScript via tsconfig.json', { 'package.json': pkg({ scripts: { test: 'jest' } }), 'tsconfig.json': '' }, { name: 'folder', type: 'typescript' }],
  [
    'JavaScript without scripts proposes no verify command',
    { 'package.json': pkg({ name: 'js' }) },
    { type: 'javascript', verifyCommand: '', commands: { build: '', test: '', run: '' } },
  ],
  [
    'npm init default test script is not a test',
    { 'package.json': pkg({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }) },
    { verifyCommand: '' },
  ],
  [
    'yarn',
    { 'package.json': pkg({ scripts: { test: 't', build: 'b', dev: 'd' } }), 'yarn.lock': '' },
    { packageManager: 'yarn', verifyCommand: 'yarn test', commands: { build: 'yarn build', run: 'yarn dev' } },
  ],
  [
    'pnpm',
    { 'package.json': pkg({ scripts: { test: 't' } }), 'pnpm-lock.yaml': '' },
    { packageManager: 'pnpm', verifyCommand: 'pnpm test', commands: { install: 'pnpm install' } },
  ],
  [
    'bun (bun.lock)',
    { 'package.json': pkg({ scripts: { test: 't', start: 's' } }), 'bun.lock': '' },
    { packageManager: 'bun', verifyCommand: 'bun run test', commands: { run: 'bun run start' } },
  ],
  ['bun (bun.lockb)', { 'package.json': pkg({ scripts: { build: 'b' } }), 'bun.lockb': '' }, { packageManager: 'bun', commands: { build: 'bun run build' } }],
  ['Next.js wins over react', { 'package.json': pkg({ dependencies: { next: '14', react: '18' } }) }, { framework: 'nextjs' }],
  ['express', { 'package.json': pkg({ dependencies: { express: '4' } }) }, { framework: 'express' }],
  ['react', { 'package.json': pkg({ dependencies: { react: '18' } }) }, { framework: 'react' }],
  ['vue', { 'package.json': pkg({ devDependencies: { vue: '3' } }) }, { framework: 'vue' }],
  ['broken package.json', { 'package.json': '{oops' }, { type: 'javascript', name: 'folder' }],
  [
    'Python with uv.lock',
    { 'pyproject.toml': '[project]\nname = "my-api"\ndependencies = ["fastapi>=0.1"]\n', 'uv.lock': '' },
    {
      name: 'my-api',
      type: 'python',
      framework: 'fastapi',
      packageManager: 'uv',
      verifyCommand: 'uv run pytest',
      commands: { install: 'uv sync', run: 'uv run python -m my_api' },
    },
  ],
  ['Python with [tool.uv]', { 'pyproject.toml': '[project]\nname = "x"\n\n[tool.uv]\ndev-dependencies = []\n' }, { packageManager: 'uv' }],
  [
    'Python with pip and pyproject',
    { 'pyproject.toml': "[project]\nname = 'lib'\n" },
    { packageManager: 'pip', verifyCommand: 'pytest', commands: { install: 'pip install -e .', run: 'python -m lib' } },
  ],
  ['setup.py with flask', { 'setup.py': "setup(name='svc', install_requires=['Flask'])" }, { name: 'svc', framework: 'flask', type: 'python' }],
  [
    'requirements.txt only, django with manage.py',
    { 'requirements.txt': 'Django==5.0\npytest\n', 'manage.py': '' },
    { type: 'python', framework: 'django', commands: { install: 'pip install -r requirements.txt', run: 'python manage.py runserver' } },
  ],
  ['flask-login is not flask', { 'requirements.txt': 'flask-login\n' }, { framework: '' }],
  [
    'requirements.txt next to package.json stays a Node project',
    { 'package.json': pkg({ name: 'n' }), 'requirements.txt': 'mkdocs\n' },
    { type: 'javascript' },
  ],
  [
    'Rust',
    { 'Cargo.toml': '[package]\nname = "crab"\nversion = "0.1.0"\n' },
    { name: 'crab', type: 'rust', verifyCommand: 'cargo test', commands: { build: 'cargo build', run: 'cargo run' } },
  ],
  [
    'Go',
    { 'go.mod': 'module github.com/acme/tool\n\ngo 1.22\n' },
    { name: 'tool', type: 'go', verifyCommand: 'go test ./...', commands: { build: 'go build ./...', run: 'go run .' } },
  ],
  ['go.mod wins over package.json (later manifests win)', { 'package.json': pkg({}), 'go.mod': 'module m\n' }, { type: 'go', name: 'm' }],
];

describe('detectProject', () => {
  it.each(CASES)('%s', (_title, files, expected) => {
    const info = detectProject(new Map(Object.entries(files)), 'folder');
    const { commands, ...rest } = expected;
    expect(info).toMatchObject(rest);
    if (commands) expect(info.commands).toMatchObject(commands);
  });

  it('explains why nothing is proposed for a package without tests', () => {
    const info = detectProject(new Map([['package.json', '{}']]), 'f');
    expect(info.notes.join(' ')).toMatch(/no test script/);
  });
});
