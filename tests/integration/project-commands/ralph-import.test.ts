import { NO_REDACTION } from '../../../src/core/secret-redactor.js';
import { isRunning } from '../../helpers/processes.js';
import type { FakeCall } from '../../helpers/run-cli.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createConversionBackend } from '../../../src/backends/claude/create-claude-backend.js';
import { importProject } from '../../../src/features/project/import/import-project.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { createMemoryLogger } from '../../../src/ui/logger.js';
import { git } from '../../helpers/git-repo.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { assertBuilt, FAKE_CLAUDE_BIN, isolatedEnv, REPO_ROOT, runCommand, type CommandResult } from './run-command.js';

// Spawns the built CLI: needs `npx tsc -p tsconfig.build.json` first.
beforeAll(assertBuilt);

const WRITE_ALL = [
  'mkdir -p .ralph/specs',
  "printf '# Shop agent prompt\\nBuild the shop.\\n' > .ralph/PROMPT.md",
  "printf '## High Priority\\n- [ ] Product list\\n' > .ralph/fix_plan.md",
  "printf '# Requirements\\n- products\\n' > .ralph/specs/requirements.md",
].join(' && ');
const WRITE_TWO = WRITE_ALL.replace(" && printf '# Requirements\\n- products\\n' > .ralph/specs/requirements.md", '');
const PRD = '# Shop\n\n- Product list\n';

type Call = FakeCall;

function workspace(call?: Call, extraEnv: Record<string, string> = {}): { cwd: string; env: NodeJS.ProcessEnv; state: string } {
  const root = tempDir('ralph-import-');
  const cwd = join(root, 'work');
  const state = join(root, 'claude-state');
  mkdirSync(cwd);
  writeFileSync(join(cwd, 'shop-prd.md'), PRD);
  const scenario = join(root, 'scenario.json');
  writeFileSync(scenario, JSON.stringify({ calls: call ? [call] : [] }));
  const env = isolatedEnv(join(root, 'home'), {
    PATH: `${FAKE_CLAUDE_BIN}:${process.env['PATH'] ?? ''}`,
    FAKE_CLAUDE_SCENARIO: scenario,
    FAKE_CLAUDE_STATE: state,
    ...extraEnv,
  });
  return { cwd, env, state };
}

const importPrd = (w: { cwd: string; env: NodeJS.ProcessEnv }, ...args: string[]): Promise<CommandResult> => runCommand('ralph-import', args, w);
const callCount = (state: string): number => (existsSync(join(state, 'count')) ? Number(readFileSync(join(state, 'count'), 'utf8')) : 0);

/** After a failure: the document (unchanged) and Claude's output log, no project, no hidden staging folder. */
function expectNothingLeft(cwd: string, name: string): void {
  expect(readdirSync(cwd).sort()).toEqual([`ralph-import-${name}-failed.log`, 'shop-prd.md']);
  expect(readFileSync(join(cwd, 'shop-prd.md'), 'utf8')).toBe(PRD);
}

describe('ralph-import', () => {
  it('builds the project from what Claude wrote, with the right call, and commits it', async () => {
    const w = workspace({ shell: WRITE_ALL, fixture: 'json-success-tool-use.json' });
    const result = await importPrd(w, 'shop-prd.md');
    expect(result.stderr).toContain('Project created in:');
    expect(result.code).toBe(0);
    const dir = join(w.cwd, 'shop-prd');
    expect(readdirSync(w.cwd).sort()).toEqual(['shop-prd', 'shop-prd.md']);
    expect(readFileSync(join(dir, '.ralph/specs/requirements.md'), 'utf8')).toBe('# Requirements\n- products\n');
    expect(readFileSync(join(dir, '.ralph/fix_plan.md'), 'utf8')).toBe('## High Priority\n- [ ] Product list\n');
    const prompt = readFileSync(join(dir, '.ralph/PROMPT.md'), 'utf8');
    expect(prompt.startsWith('# Shop agent prompt\nBuild the shop.\n\n## Status Reporting (CRITICAL)')).toBe(true);
    expect(readFileSync(join(dir, 'shop-prd.md'), 'utf8')).toBe(PRD);
    expect(result.stderr).toMatch(/RALPH_STATUS block/);
    expect(git(dir, 'log', '--format=%s')).toBe('Initial Ralph project setup\n');
    expect(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n').filter(Boolean).sort()).toEqual(
      [
        '.gitignore',
        '.ralph/AGENT.md',
        '.ralph/PROMPT.md',
        '.ralph/fix_plan.md',
        '.ralph/specs/requirements.md',
        '.ralphrc',
        'README.md',
        'shop-prd.md',
      ].sort(),
    );
    expect(readdirSync(join(dir, '.ralph/logs')).some((f) => f.startsWith('claude_import_'))).toBe(true);

    const call = JSON.parse(readFileSync(join(w.state, 'call-1.json'), 'utf8')) as { argv: string[]; stdin_closed: boolean; cwd: string };
    expect(call.stdin_closed).toBe(true);
    // The loop's argv builder: flags first, the prompt last, no model, effort or system prompt of a project.
    expect(call.argv.slice(0, -2)).toEqual(['--output-format', 'json', '--allowedTools', 'Read', 'Write', 'Edit', 'Bash(mkdir *)']);
    expect(call.argv.at(-2)).toBe('-p');
    expect(call.argv.at(-1)).toContain('- Product list');
    expect(basename(call.cwd)).toMatch(/^\.shop-prd\.ralph-import-[0-9a-f]+$/);
    expect(result.stderr).toMatch(/Claude session: \S+/);
    expect(result.stderr).toMatch(/Claude said: \S+/);
  });

  it('accepts plain text output and a project name argument', async () => {
    const w = workspace({ shell: WRITE_ALL, fixture: 'text-success.txt' });
    const result = await importPrd(w, 'shop-prd.md', 'nested/My Shop');
    expect(result.code).toBe(0);
    expect(existsSync(join(w.cwd, 'nested/My Shop/.ralph/specs/requirements.md'))).toBe(true);
  });

  it('fails when one file is missing, leaving nothing that looks like a project', async () => {
    const w = workspace({ shell: WRITE_TWO, fixture: 'json-success-tool-use.json' });
    const result = await importPrd(w, 'shop-prd.md', 'deep/er/shop');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the conversion did not produce .ralph/specs/requirements.md');
    expect(result.stderr).toContain('Nothing was created; shop-prd.md was not changed.');
    expect(result.stderr).toContain('ralph-import-shop-failed.log');
    expect(readdirSync(w.cwd).sort()).toEqual(['ralph-import-shop-failed.log', 'shop-prd.md']);
    expect(readFileSync(join(w.cwd, 'shop-prd.md'), 'utf8')).toBe(PRD);
  });

  it.each([
    ['json-error-auth.json', /Claude reported an error \(API status 401\): Invalid API key/],
    ['json-error-rate-limit.json', /Claude reported an error/],
  ])('fails on an is_error result (%s) even though the files were written', async (fixture, message) => {
    const w = workspace({ shell: WRITE_ALL, fixture });
    const result = await importPrd(w, 'shop-prd.md');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expectNothingLeft(w.cwd, 'shop-prd');
  });

  it('names the denied tools when the conversion fails', async () => {
    const w = workspace({ shell: WRITE_TWO, fixture: 'json-permission-denied.json' });
    const result = await importPrd(w, 'shop-prd.md');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the conversion did not produce .ralph/specs/requirements.md. Claude Code was denied Bash (npm test)');
    expectNothingLeft(w.cwd, 'shop-prd');
  });

  it('fails on a non-zero exit, naming it', async () => {
    const w = workspace({ shell: WRITE_ALL, stdout: '', stderr: 'fatal: model unavailable\n', exit: 3 });
    const result = await importPrd(w, 'shop-prd.md');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Claude exited with code 3: fatal: model unavailable');
    expect(readFileSync(join(w.cwd, 'ralph-import-shop-prd-failed.log'), 'utf8')).toContain('fatal: model unavailable');
    expectNothingLeft(w.cwd, 'shop-prd');
  });

  it("times out, ending Claude's whole process tree, and leaves nothing behind", async () => {
    // The smallest --timeout is a minute: the same conversion runs in-process with a short limit,
    // long enough for the fake Claude to start and leave its grandchild on a busy machine (what is
    // checked below), far below the 60 s it would sleep.
    const w = workspace({ shell: WRITE_ALL, fixture: 'json-success-tool-use.json', sleep_ms: 60_000, grandchild: true });
    const backend = createConversionBackend(['claude'], w.env, createMemoryLogger(), () => NO_REDACTION);
    const conversion = importProject({
      sourcePath: 'shop-prd.md',
      projectDir: join(w.cwd, 'shop-prd'),
      cwd: w.cwd,
      backend,
      timeoutMs: 8_000,
      runner: createProcessRunner(),
    });
    await expect(conversion).rejects.toThrow('Claude did not finish the conversion within 8s');
    expect(readdirSync(w.cwd)).toEqual(['shop-prd.md']);
    const call = JSON.parse(readFileSync(join(w.state, 'call-1.json'), 'utf8')) as { pid: number };
    expect(isRunning(call.pid)).toBe(false);
    expect(isRunning(Number(readFileSync(join(w.state, 'grandchild-1.pid'), 'utf8')))).toBe(false);
  });

  it('stops on Ctrl+C with exit 130, ending Claude and removing the half-made project', async () => {
    const w = workspace({ shell: WRITE_ALL, fixture: 'json-success-tool-use.json', sleep_ms: 20_000 });
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/ralph-import.js'), 'shop-prd.md'], {
      cwd: w.cwd,
      env: w.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    await vi.waitFor(() => expect(existsSync(join(w.state, 'call-1.json'))).toBe(true), { timeout: 60_000, interval: 50 });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('the conversion was interrupted');
    expect(readdirSync(w.cwd)).toEqual(['shop-prd.md']);
    const call = JSON.parse(readFileSync(join(w.state, 'call-1.json'), 'utf8')) as { pid: number };
    expect(isRunning(call.pid)).toBe(false);
  });

  it('refuses a missing or empty document, or an existing target, before calling Claude', async () => {
    const w = workspace({ shell: WRITE_ALL, fixture: 'json-success-tool-use.json' });
    const missing = await importPrd(w, 'nope.md');
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('document not found: nope.md');
    writeFileSync(join(w.cwd, 'empty.md'), '\n\n');
    const empty = await importPrd(w, 'empty.md');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('empty.md is empty');
    mkdirSync(join(w.cwd, 'taken'));
    writeFileSync(join(w.cwd, 'taken/file'), 'x');
    const taken = await importPrd(w, 'shop-prd.md', 'taken');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/taken already exists/);
    expect(callCount(w.state)).toBe(0);
    expect(readdirSync(w.cwd).sort()).toEqual(['empty.md', 'shop-prd.md', 'taken']);
  });

  it('says so when Claude Code is not installed', async () => {
    const w = workspace(undefined, { CLAUDE_CODE_CMD: '/nonexistent/claude --flag' });
    const result = await importPrd(w, 'shop-prd.md');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('command not found: /nonexistent/claude');
    expect(result.stderr).toContain('Install Claude Code with `npm install -g @anthropic-ai/claude-code`');
    expect(result.stderr).toContain('CLAUDE_CODE_CMD');
    expect(readdirSync(w.cwd)).toEqual(['shop-prd.md']);
  });

  it('has --help, --version and usage errors', async () => {
    const w = workspace();
    const help = await importPrd(w, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: ralph-import \[options\] <file> \[name\]/);
    expect((await importPrd(w, '--version')).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const noFile = await importPrd(w);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toMatch(/missing required argument 'file'/);
    const timeout = await importPrd(w, 'shop-prd.md', '--timeout', '0');
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain('invalid value for --timeout: "0"; expected a whole number from 1 to 120 (minutes)');
    expect(callCount(w.state)).toBe(0);
  });
});
