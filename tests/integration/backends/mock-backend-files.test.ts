// The mock agent's file effects against real symlinks planted in a real
// project folder: nothing outside the project is written, deleted or
// recursively deleted, and .git/ is off limits.
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMockScript, MockBackend } from '../../../src/backends/mock/mock-backend.js';
import type { AgentRequest, Clock, ProcessRunner } from '../../../src/ports.js';
import { tempDir } from '../../helpers/temp-dir.js';

const clock: Clock = { now: () => 1_767_000_000_000, sleep: async () => undefined, every: () => undefined };
const runner: ProcessRunner = {
  run: () => {
    throw new Error('the mock agent must not run processes here');
  },
} as unknown as ProcessRunner;

function backendFor(project: string, files: Record<string, string | null>): MockBackend {
  const scriptPath = join(project, '.ralph', 'mock.json');
  mkdirSync(join(project, '.ralph'), { recursive: true });
  writeFileSync(scriptPath, JSON.stringify({ responses: [{ output: 'done', files }] }));
  return new MockBackend({ scriptPath, projectDir: project, fixPlanPath: join(project, '.ralph', 'fix_plan.md'), optionalSections: [], runner, clock });
}

function request(project: string): AgentRequest {
  return { loop: 1, cwd: project, prompt: 'p', loopContext: '', timeoutMs: 60_000, outputLogPath: join(project, '.ralph', 'out.log'), live: false };
}

function outsideWithFiles(): string {
  const outside = tempDir('ralph-outside-');
  writeFileSync(join(outside, 'keep.txt'), 'outside\n');
  mkdirSync(join(outside, 'tree'));
  writeFileSync(join(outside, 'tree', 'deep.txt'), 'deep\n');
  return outside;
}

describe('mock backend file effects never leave the project', () => {
  it.each<[string, Record<string, string | null>, string]>([
    ['write through a symlinked folder', { 'out/new.txt': 'x' }, '"out" is a symbolic link'],
    ['overwrite through a symlinked folder', { 'out/keep.txt': 'overwritten' }, '"out" is a symbolic link'],
    ['write to a symlinked file', { 'link.txt': 'overwritten' }, '"link.txt" is a symbolic link'],
    ['delete through a symlinked folder', { 'out/keep.txt': null }, '"out" is a symbolic link'],
    ['recursively delete through a symlinked folder', { 'out/tree': null }, '"out" is a symbolic link'],
    ['write below a nested symlink', { 'inside/deeper/x.txt': 'x' }, '"inside/deeper" is a symbolic link'],
  ])('refuses to %s, naming the response and the path, and applies nothing', async (_name, files, reason) => {
    const project = tempDir('ralph-proj-');
    const outside = outsideWithFiles();
    symlinkSync(outside, join(project, 'out'));
    symlinkSync(join(outside, 'keep.txt'), join(project, 'link.txt'));
    mkdirSync(join(project, 'inside'));
    symlinkSync(outside, join(project, 'inside', 'deeper'));
    const backend = backendFor(project, { 'first.txt': 'applied?', ...files });
    const run = await backend.run(request(project), new AbortController().signal);
    expect(run.end).toBe('spawn_failed');
    expect(run.outcome.kind).toBe('fatal');
    const message = run.outcome.kind === 'fatal' ? run.outcome.message : '';
    expect(message).toContain('mock response 1 (responses[0]');
    expect(message).toContain(`files["${Object.keys(files)[0]}"] is refused: ${reason}`);
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('outside\n');
    expect(readFileSync(join(outside, 'tree', 'deep.txt'), 'utf8')).toBe('deep\n');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);
    expect(existsSync(join(project, 'first.txt'))).toBe(false);
  });

  it('deleting a symlink removes the link only, and plain effects still work', async () => {
    const project = tempDir('ralph-proj-');
    const outside = outsideWithFiles();
    symlinkSync(join(outside, 'tree'), join(project, 'tree-link'));
    mkdirSync(join(project, 'old'));
    writeFileSync(join(project, 'old', 'a.txt'), 'a');
    const backend = backendFor(project, { 'tree-link': null, old: null, 'src/new/file.txt': 'hello\n' });
    const run = await backend.run(request(project), new AbortController().signal);
    expect(run.end).toBe('exited');
    expect(() => lstatSync(join(project, 'tree-link'))).toThrow();
    expect(readFileSync(join(outside, 'tree', 'deep.txt'), 'utf8')).toBe('deep\n');
    expect(existsSync(join(project, 'old'))).toBe(false);
    expect(readFileSync(join(project, 'src', 'new', 'file.txt'), 'utf8')).toBe('hello\n');
  });

  it('check_tasks never rewrites a fix plan that is a symlink to a file outside', async () => {
    const project = tempDir('ralph-proj-');
    const outside = tempDir('ralph-outside-');
    writeFileSync(join(outside, 'plan.md'), '- [ ] not yours\n');
    mkdirSync(join(project, '.ralph'));
    symlinkSync(join(outside, 'plan.md'), join(project, '.ralph', 'fix_plan.md'));
    const scriptPath = join(project, '.ralph', 'mock.json');
    writeFileSync(scriptPath, JSON.stringify({ responses: [{ output: 'done', check_tasks: 1 }] }));
    const backend = new MockBackend({
      scriptPath,
      projectDir: project,
      fixPlanPath: join(project, '.ralph', 'fix_plan.md'),
      optionalSections: [],
      runner,
      clock,
    });
    const run = await backend.run(request(project), new AbortController().signal);
    expect(run.end).toBe('spawn_failed');
    expect(run.outcome).toMatchObject({ kind: 'fatal' });
    expect(run.outcome.kind === 'fatal' ? run.outcome.message : '').toContain(
      'check_tasks cannot update .ralph/fix_plan.md: ".ralph/fix_plan.md" is a symbolic link',
    );
    expect(readFileSync(join(outside, 'plan.md'), 'utf8')).toBe('- [ ] not yours\n');
  });

  it.each([
    ['.git/hooks/pre-commit', 'inside .git/'],
    ['sub/.git/config', 'inside .git/'],
    ['.GIT/config', 'inside .git/'],
    ['../escape.txt', '".." is not allowed'],
    ['/etc/passwd', 'absolute paths are not allowed'],
  ])('refuses %s when the script is read', (path, reason) => {
    const project = tempDir('ralph-proj-');
    const script = join(project, 'mock.json');
    writeFileSync(script, JSON.stringify({ responses: [{ output: 'x' }, { output: 'y', files: { [path]: 'x' } }] }));
    expect(() => loadMockScript(script)).toThrow(`responses[1].files: "${path}" is refused (`);
    expect(() => loadMockScript(script)).toThrow(reason);
  });
});
