import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRalphrc } from '../../../src/config/ralphrc.js';
import { parseFixPlan } from '../../../src/core/fix-plan.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { assertBuilt, isolatedEnv, REPO_ROOT, runCommand, type CommandResult } from './run-command.js';

// Spawns the built CLI: needs `npx tsc -p tsconfig.build.json` first.
beforeAll(assertBuilt);

function project(files: Record<string, string> = {}): { cwd: string; env: NodeJS.ProcessEnv } {
  const root = tempDir('ralph-enable-');
  const cwd = join(root, 'app');
  mkdirSync(cwd);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(cwd, rel, '..'), { recursive: true });
    writeFileSync(join(cwd, rel), text);
  }
  return { cwd, env: isolatedEnv(join(root, 'home')) };
}

const enable = (p: { cwd: string; env: NodeJS.ProcessEnv }, ...args: string[]): Promise<CommandResult> => runCommand('ralph-enable', args, p);
const read = (cwd: string, rel: string): string => readFileSync(join(cwd, rel), 'utf8');
const rcValue = (cwd: string, key: string): string | undefined => parseRalphrc(read(cwd, '.ralphrc')).entries.find((e) => e.key === key)?.value;
const json = (result: CommandResult): Record<string, unknown> => JSON.parse(result.stdout) as Record<string, unknown>;

const TS_PROJECT = {
  'package.json': JSON.stringify({ name: 'shop', scripts: { test: 'vitest run', build: 'tsc' }, devDependencies: { typescript: '5', react: '18' } }),
  'tsconfig.json': '{}',
};
const PRD = ['# Shop PRD', '', '## Must have', '1. Product list', '2. Cart', '', '## Nice to have', '- Wishlist', ''].join('\n');

describe('ralph-enable', () => {
  it('enables an empty folder without asking when stdin is not a terminal', async () => {
    const p = project();
    const result = await enable(p);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/Ralph enabled for app \(unknown\)/);
    for (const rel of ['.ralph/PROMPT.md', '.ralph/fix_plan.md', '.ralph/AGENT.md', '.ralphrc', '.gitignore']) expect(existsSync(join(p.cwd, rel))).toBe(true);
    for (const rel of ['.ralph/specs', '.ralph/logs', '.ralph/examples', '.ralph/docs/generated']) expect(statSync(join(p.cwd, rel)).isDirectory()).toBe(true);
    expect(existsSync(join(p.cwd, 'src'))).toBe(false);
    expect(existsSync(join(p.cwd, 'README.md'))).toBe(false);
    expect(rcValue(p.cwd, 'VERIFY_COMMAND')).toBeUndefined();
  });

  it('prints exactly the JSON document for a TypeScript project, proposing the verify command', async () => {
    const p = project(TS_PROJECT);
    const result = await enable(p, '--json');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(json(result)).toEqual({
      success: true,
      project_name: 'shop',
      project_type: 'typescript',
      framework: 'react',
      files_created: ['.ralph/PROMPT.md', '.ralph/fix_plan.md', '.ralph/AGENT.md', '.ralphrc', '.gitignore'],
      files_overwritten: [],
      files_backed_up: [],
      files_updated: [],
      files_skipped: [],
      tasks_imported: 0,
      verify_command: '',
      backend: 'claude',
      message: 'Ralph enabled successfully',
    });
    expect(read(p.cwd, '.ralphrc')).toMatch(/# Proposed by ralph-enable[^\n]*\n#[^\n]*\n# VERIFY_COMMAND="npm test"\n/);
    expect(read(p.cwd, '.ralph/AGENT.md')).toContain('```bash\nnpm run build\n```');
    expect(read(p.cwd, '.ralph/PROMPT.md')).toContain('**shop** (typescript, react)');
  });

  it('detects Python and sets the verify command given as a flag; merges an existing .gitignore', async () => {
    const p = project({ 'pyproject.toml': '[project]\nname = "api"\ndependencies = ["fastapi"]\n', 'uv.lock': '', '.gitignore': '.venv/\n' });
    const result = await enable(p, '--json', '--verify-command', 'uv run pytest -q', '--project-name', 'My API');
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({
      project_name: 'My API',
      project_type: 'python',
      framework: 'fastapi',
      verify_command: 'uv run pytest -q',
      files_updated: ['.gitignore'],
    });
    expect(rcValue(p.cwd, 'VERIFY_COMMAND')).toBe('uv run pytest -q');
    expect(rcValue(p.cwd, 'PROJECT_NAME')).toBe('My API');
    expect(read(p.cwd, '.gitignore')).toMatch(/^\.venv\/\n\n# Ralph state and logs[^\n]*\n\.ralph\/logs\//);
  });

  it('refuses an enabled project with exit 2 and the JSON document, changing nothing', async () => {
    const p = project(TS_PROJECT);
    expect((await enable(p)).code).toBe(0);
    writeFileSync(join(p.cwd, '.ralph/PROMPT.md'), 'my edits');
    const result = await enable(p, '--json');
    expect(result.code).toBe(2);
    // The keys scripts read before every command shared one error envelope, and the envelope.
    expect(JSON.parse(result.stdout)).toEqual({
      success: false,
      code: 2,
      message: 'Ralph already enabled. Use --force to override.',
      error: { code: 2, kind: 'usage', message: 'Ralph already enabled. Use --force to override.' },
    });
    expect(result.stdout.trimEnd()).not.toContain('\n');
    expect(read(p.cwd, '.ralph/PROMPT.md')).toBe('my edits');
    const plain = await enable(p);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('Ralph already enabled. Use --force to override.');
  });

  it("--force replaces Ralph's files but keeps the user's .ralphrc values", async () => {
    const p = project(TS_PROJECT);
    expect((await enable(p)).code).toBe(0);
    writeFileSync(join(p.cwd, '.ralph/PROMPT.md'), 'stale');
    writeFileSync(join(p.cwd, '.ralphrc'), read(p.cwd, '.ralphrc').replace('MAX_CALLS_PER_HOUR=100', 'MAX_CALLS_PER_HOUR=12'));
    const result = await enable(p, '--force', '--json', '--verify-command', 'npm test');
    expect(result.code).toBe(0);
    // Files that already match the templates are left alone; the changed one is kept as .bak.
    expect(json(result)).toMatchObject({
      files_created: [],
      files_overwritten: ['.ralph/PROMPT.md'],
      files_backed_up: ['.ralph/PROMPT.md.bak'],
      files_updated: ['.ralphrc'],
      files_skipped: ['.ralph/fix_plan.md', '.ralph/AGENT.md', '.gitignore'],
      verify_command: 'npm test',
    });
    expect(read(p.cwd, '.ralph/PROMPT.md')).toContain('RALPH_STATUS');
    expect(read(p.cwd, '.ralph/PROMPT.md.bak')).toBe('stale');
    expect(rcValue(p.cwd, 'MAX_CALLS_PER_HOUR')).toBe('12');
    expect(statSync(join(p.cwd, '.ralphrc')).mode & 0o777).toBe(0o600);
  });

  it('restores only what is missing, and --force keeps every customised file as a free .bak', async () => {
    const p = project(TS_PROJECT);
    expect((await enable(p)).code).toBe(0);
    writeFileSync(join(p.cwd, '.ralph/PROMPT.md'), 'my own prompt\n');
    writeFileSync(join(p.cwd, '.ralph/AGENT.md'), 'my own agent notes\n');
    writeFileSync(join(p.cwd, '.ralph/PROMPT.md.bak'), 'an older backup\n');
    rmSync(join(p.cwd, '.ralph/fix_plan.md'));

    // What Ralph advises for the missing file restores it and touches nothing else.
    const advice = await runCommand('ralph', [], p);
    expect(advice.stderr).toContain('Run ralph-enable to restore only the missing files');
    expect(advice.stderr).not.toContain('--force');
    const restore = await enable(p, '--json');
    expect(restore.code).toBe(0);
    expect(json(restore)).toMatchObject({ files_created: ['.ralph/fix_plan.md'], files_overwritten: [] });
    expect(read(p.cwd, '.ralph/PROMPT.md')).toBe('my own prompt\n');
    expect(read(p.cwd, '.ralph/AGENT.md')).toBe('my own agent notes\n');

    const forced = await enable(p, '--force', '--json');
    expect(forced.code).toBe(0);
    expect(json(forced)).toMatchObject({
      files_overwritten: ['.ralph/PROMPT.md', '.ralph/AGENT.md'],
      files_backed_up: ['.ralph/PROMPT.md.bak.1', '.ralph/AGENT.md.bak'],
    });
    expect(read(p.cwd, '.ralph/PROMPT.md')).toContain('RALPH_STATUS');
    expect(read(p.cwd, '.ralph/PROMPT.md.bak.1')).toBe('my own prompt\n');
    expect(read(p.cwd, '.ralph/PROMPT.md.bak')).toBe('an older backup\n');
    expect(read(p.cwd, '.ralph/AGENT.md.bak')).toBe('my own agent notes\n');
  });

  it.each([[['--from', 'prd', 'docs/prd.md']], [['--prd', 'docs/prd.md']]])('imports PRD tasks with %j, without Claude', async (args) => {
    const p = project({ ...TS_PROJECT, 'docs/prd.md': PRD });
    const result = await enable(p, '--json', ...args);
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ tasks_imported: 3 });
    expect(json(result)['files_created']).toContain('.ralph/specs/prd.md');
    const plan = parseFixPlan(read(p.cwd, '.ralph/fix_plan.md'), ['Optional']);
    expect(plan.tasks.map((t) => [t.text, t.section])).toEqual([
      ['Product list', 'High Priority'],
      ['Cart', 'High Priority'],
      ['Wishlist', 'Optional'],
      ['Ralph enabled for this project', 'Completed'],
    ]);
    expect(read(p.cwd, '.ralph/specs/prd.md')).toBe(PRD);
  });

  it('exits 4 for a missing PRD before writing anything', async () => {
    const p = project();
    const result = await enable(p, '--json', '--from', 'prd', 'nope.md');
    expect(result.code).toBe(4);
    expect(json(result)).toMatchObject({
      success: false,
      code: 4,
      message: 'document not found: nope.md',
      error: { code: 4, kind: 'runtime', message: 'document not found: nope.md' },
    });
    expect(existsSync(join(p.cwd, '.ralph'))).toBe(false);
    expect(existsSync(join(p.cwd, '.ralphrc'))).toBe(false);
  });

  it('exits 2 for bad flags, naming the flag and the accepted values', async () => {
    const p = project();
    const github = await enable(p, '--from', 'github');
    expect(github.code).toBe(2);
    expect(github.stderr).toMatch(/--from: "github"; expected prd/);
    const type = await enable(p, '--project-type', 'cobol');
    expect(type.code).toBe(2);
    expect(type.stderr).toContain('invalid value for --project-type: "cobol"; expected one of typescript, javascript, python, rust, go, unknown');
    expect((await enable(p, '--from', 'prd')).stderr).toMatch(/--from prd needs a file/);
    const backend = await enable(p, '--backend', 'copilot');
    expect(backend.code).toBe(2);
    expect(backend.stderr).toMatch(/--backend <name>' argument 'copilot' is invalid\. Allowed choices are claude, codex, gemini, opencode, mock/);
    expect((await enable(p, '--bogus')).code).toBe(2);
    expect(existsSync(join(p.cwd, '.ralph'))).toBe(false);
  });

  // util-linux `script` gives the command a real terminal, so the wizard runs as it does for a user.
  it.skipIf(spawnSync('script', ['--version']).status !== 0)('runs the wizard on a terminal, re-asking an invalid number', () => {
    const p = project(TS_PROJECT);
    const run = spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(join(REPO_ROOT, 'bin/ralph-enable.js'))}`, '/dev/null'], {
      cwd: p.cwd,
      env: p.env,
      // Every question answered, the agent's with Enter (its default): the end of input would cancel the wizard.
      input: 'storefront\nlots\n50\nn\nnpm run check\n\n',
      encoding: 'utf8',
      timeout: 100_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Project name [shop]: ');
    expect(run.stdout).toContain('Please enter a whole number from 1 to 100000.');
    expect(run.stdout).toContain('Use "npm test" as the verify command? [Y/n]: ');
    expect(rcValue(p.cwd, 'PROJECT_NAME')).toBe('storefront');
    expect(rcValue(p.cwd, 'MAX_CALLS_PER_HOUR')).toBe('50');
    expect(rcValue(p.cwd, 'VERIFY_COMMAND')).toBe('npm run check');
  });

  it('--backend sets RALPH_BACKEND and writes the instructions file that agent reads, never replacing one', async () => {
    const p = project({ 'AGENTS.md': 'My own agent rules.\n' });
    const result = await enable(p, '--json', '--backend', 'codex');
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ backend: 'codex', files_skipped: ['AGENTS.md'] });
    expect(rcValue(p.cwd, 'RALPH_BACKEND')).toBe('codex');
    expect(read(p.cwd, 'AGENTS.md')).toBe('My own agent rules.\n');

    const gemini = project();
    const text = await enable(gemini, '--backend', 'gemini');
    expect(text.code).toBe(0);
    expect(text.stderr).toContain('agent: Gemini CLI (RALPH_BACKEND=gemini)');
    expect(rcValue(gemini.cwd, 'RALPH_BACKEND')).toBe('gemini');
    expect(read(gemini.cwd, 'GEMINI.md')).toContain('.ralph/AGENT.md');
    expect(existsSync(join(gemini.cwd, 'CLAUDE.md'))).toBe(false);
  });

  it('--quiet prints nothing and still enables', async () => {
    const p = project();
    const result = await enable(p, '--quiet');
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(p.cwd, '.ralph/PROMPT.md'))).toBe(true);
  });
});
