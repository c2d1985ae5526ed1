import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FALLBACK_IDENTITY, INITIAL_COMMIT_MESSAGE } from '../../../src/features/project/setup/project-repository.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { assertBuilt, isolatedEnv, REPO_ROOT, runCommand } from './run-command.js';

// Spawns the built CLI: needs `npx tsc -p tsconfig.build.json` first.
beforeAll(assertBuilt);

let gitHome = '';
beforeAll(() => {
  gitHome = mkdtempSync(join(tmpdir(), 'ralph-setup-githome-'));
  return () => rmSync(gitHome, { recursive: true, force: true });
});
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', env: isolatedEnv(gitHome) });
const committedFiles = (dir: string): string[] => git(dir, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n').filter(Boolean).sort();
const RALPH_FILES = ['.gitignore', '.ralph/AGENT.md', '.ralph/PROMPT.md', '.ralph/fix_plan.md', '.ralphrc', 'README.md'];

function workspace(): { cwd: string; env: NodeJS.ProcessEnv } {
  const root = tempDir('ralph-setup-');
  const cwd = join(root, 'work');
  mkdirSync(cwd);
  return { cwd, env: isolatedEnv(join(root, 'home')) };
}

describe('ralph-setup', () => {
  it.each([['my-project'], ['my_project'], ['name with spaces'], ['a/b/c']])('creates a complete project named %j without any git identity', async (name) => {
    const { cwd, env } = workspace();
    const result = await runCommand('ralph-setup', [name], { cwd, env });
    // The summary is the command's result (stdout); only the progress line is on stderr.
    expect(result.stdout).toContain('Ralph project ready');
    expect(result.stdout).toContain('Next steps:');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Setting up Ralph project: ${name}\n`);
    const dir = join(cwd, name);
    for (const sub of ['src', '.ralph/specs/stdlib', '.ralph/examples', '.ralph/logs', '.ralph/docs/generated'])
      expect(statSync(join(dir, sub)).isDirectory()).toBe(true);
    expect(statSync(join(dir, '.ralphrc')).mode & 0o777).toBe(0o600);
    const last = name.split('/').pop() ?? name;
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(`# ${last}\n`);
    expect(readFileSync(join(dir, '.ralph/PROMPT.md'), 'utf8')).toContain(`**${last}**`);
    expect(git(dir, 'log', '--format=%s|%an|%ae')).toBe(`${INITIAL_COMMIT_MESSAGE}|${FALLBACK_IDENTITY.name}|${FALLBACK_IDENTITY.email}\n`);
    expect(committedFiles(dir)).toEqual(RALPH_FILES);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(result.stdout).toMatch(/no identity was configured/);
  });

  it("keeps an existing folder's README and .gitignore byte for byte, commits only its own files, ignores a stray ./templates", async () => {
    const { cwd, env } = workspace();
    mkdirSync(join(cwd, 'templates'));
    writeFileSync(join(cwd, 'templates/PROMPT.md'), 'HIJACKED');
    const dir = join(cwd, 'existing');
    mkdirSync(dir);
    const readme = '# My own readme\r\n\r\nkeep me\n';
    writeFileSync(join(dir, 'README.md'), readme);
    writeFileSync(join(dir, '.gitignore'), 'secret.txt\n');
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const result = await runCommand('ralph-setup', ['existing'], { cwd, env });
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(readme);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('secret.txt\n');
    expect(readFileSync(join(dir, '.ralph/PROMPT.md'), 'utf8')).not.toContain('HIJACKED');
    expect(result.stdout).toMatch(/kept as they were \(already there\): \.gitignore, README\.md/);
    expect(committedFiles(dir)).toEqual(['.ralph/AGENT.md', '.ralph/PROMPT.md', '.ralph/fix_plan.md', '.ralphrc']);
    expect(git(dir, 'status', '--porcelain')).toBe('?? .gitignore\n?? README.md\n?? notes.txt\n');
  });

  it('uses the configured git identity and never touches a second run', async () => {
    const { cwd, env } = workspace();
    writeFileSync(join(env['HOME'] as string, '.gitconfig'), '[user]\n\tname = Jo User\n\temail = jo@example.com\n');
    expect((await runCommand('ralph-setup', ['p'], { cwd, env })).code).toBe(0);
    const dir = join(cwd, 'p');
    expect(git(dir, 'log', '--format=%an <%ae>')).toBe('Jo User <jo@example.com>\n');
    expect(readFileSync(join(dir, '.git/config'), 'utf8')).not.toContain('[user]');

    writeFileSync(join(dir, '.ralph/fix_plan.md'), '- [ ] edited\n');
    const again = await runCommand('ralph-setup', ['p'], { cwd, env });
    expect(again.code).toBe(0);
    expect(readFileSync(join(dir, '.ralph/fix_plan.md'), 'utf8')).toBe('- [ ] edited\n');
    expect(git(dir, 'rev-list', '--count', 'HEAD')).toBe('1\n');
  });

  it("leaves the user's staged changes staged in an existing repository", async () => {
    const { cwd, env } = workspace();
    const dir = join(cwd, 'repo');
    mkdirSync(dir);
    git(dir, 'init', '-q');
    writeFileSync(join(dir, 'work.txt'), 'in progress');
    git(dir, 'add', 'work.txt');
    expect((await runCommand('ralph-setup', ['repo'], { cwd, env })).code).toBe(0);
    expect(committedFiles(dir)).toEqual(RALPH_FILES);
    expect(git(dir, 'status', '--porcelain')).toBe('A  work.txt\n');
  });

  it('commits nothing into a repository the existing folder merely lies in', async () => {
    const { cwd, env } = workspace();
    git(cwd, 'init', '-q');
    mkdirSync(join(cwd, 'sub'));
    const result = await runCommand('ralph-setup', ['sub'], { cwd, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/inside the git repository/);
    expect(readdirSync(join(cwd, 'sub'))).not.toContain('.git');
    expect(git(cwd, 'rev-list', '--all')).toBe('');
  });

  it('has --help, --version and usage errors naming the problem', async () => {
    const { cwd, env } = workspace();
    const help = await runCommand('ralph-setup', ['--help'], { cwd, env });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: ralph-setup \[options\] \[name\]/);
    const version = await runCommand('ralph-setup', ['--version'], { cwd, env });
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version);
    const bad = await runCommand('ralph-setup', ['--colour'], { cwd, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown option '--colour'");
    expect((await runCommand('ralph-setup', ['a', 'b'], { cwd, env })).code).toBe(2);
    expect((await runCommand('ralph-setup', ['../up'], { cwd, env })).code).toBe(2);
    writeFileSync(join(cwd, 'afile'), '');
    const file = await runCommand('ralph-setup', ['afile'], { cwd, env });
    expect(file.code).toBe(1);
    expect(file.stderr).toMatch(/exists and is not a folder/);
    expect(readdirSync(cwd).sort()).toEqual(['afile']);
  });
});

describe('ralph-setup --backend', () => {
  it('writes the chosen backend into .ralphrc and gives its CLI the instructions file it reads', async () => {
    const { cwd, env } = workspace();
    const result = await runCommand('ralph-setup', ['app', '--backend', 'claude'], { cwd, env });
    expect(result.code).toBe(0);
    const dir = join(cwd, 'app');
    expect(readFileSync(join(dir, '.ralphrc'), 'utf8')).toMatch(/^RALPH_BACKEND=claude$/m);
    expect(readFileSync(join(dir, 'CLAUDE.md'), 'utf8')).toContain('`.ralph/AGENT.md`');
    expect(committedFiles(dir)).toContain('CLAUDE.md');
  });

  it("never touches the user's own instructions file", async () => {
    const { cwd, env } = workspace();
    mkdirSync(join(cwd, 'app'));
    writeFileSync(join(cwd, 'app', 'CLAUDE.md'), 'mine\n');
    const result = await runCommand('ralph-setup', ['app', '--backend', 'claude'], { cwd, env });
    expect(result.code).toBe(0);
    expect(readFileSync(join(cwd, 'app', 'CLAUDE.md'), 'utf8')).toBe('mine\n');
    expect(result.stdout).toMatch(/kept as they were \(already there\):.*CLAUDE\.md/);
  });

  it('refuses a backend it does not know (exit 2)', async () => {
    const { cwd, env } = workspace();
    const result = await runCommand('ralph-setup', ['app', '--backend', 'nope'], { cwd, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nope');
  });
});
