// Seed 003 "Error Handling" and the workspace rules, through `ralph test …`
// spawned as a process (needs dist/: npm test builds first).
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import { ralphTest, toolsHome, writeSession } from '../../helpers/test-tools.js';

async function setup(home: string, id: string, input: Record<string, unknown> = {}): Promise<string> {
  const r = await ralphTest(home, 'test_setup', { workspace_id: id, ...input });
  expect(r.exitCode, r.stderr).toBe(0);
  return r.json['workspace_path'] as string;
}

describe('ralph test: paths stay inside the workspace', () => {
  it.each([
    ['../escape.txt', '".." is not allowed'],
    ['/etc/passwd', 'absolute paths are not allowed'],
    ['a/../../b', '".." is not allowed'],
    ['.git/hooks/pre-commit', '.git/ belongs to the workspace'],
  ])('refuses the fixture %s and leaves nothing behind', async (path, message) => {
    const home = toolsHome();
    const r = await ralphTest(home, 'test_setup', { workspace_id: 'evil', fixtures: { [path]: 'x' } });
    expect(r.exitCode).toBe(2);
    expect(r.json['error']).toMatchObject({ code: 'path_outside_workspace' });
    expect((r.json['error'] as { message: string }).message).toContain(message);
    expect(r.stderr).toContain('is refused');
    expect(existsSync(join(home, 'ralph-test-evil'))).toBe(false);
    expect(existsSync(join(home, 'escape.txt'))).toBe(false);
  });

  it('refuses paths through a symlink that leaves the workspace, in assertions too', async () => {
    const home = toolsHome();
    const outside = tempDir('ralph-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'secret\n');
    const dir = await setup(home, 'links');
    symlinkSync(outside, join(dir, 'out'));
    symlinkSync(join(outside, 'new.txt'), join(dir, 'dangling.txt'));
    mkdirSync(join(dir, 'inside'));
    writeFileSync(join(dir, 'inside', 'x.txt'), 'x\n');
    symlinkSync(join(dir, 'inside'), join(dir, 'in'));
    const a = await ralphTest(home, 'test_assert', {
      workspace_id: 'links',
      assertions: [{ type: 'file_contains', path: 'out/secret.txt', pattern: 'secret' }],
    });
    expect(a.exitCode).toBe(2);
    expect((a.json['error'] as { message: string }).message).toContain('outside the workspace');
    const traversal = await ralphTest(home, 'test_assert', {
      workspace_id: 'links',
      assertions: [{ type: 'file_exists', path: '../ralph-test-links/.ralphrc' }],
    });
    expect(traversal.json['error']).toMatchObject({ code: 'path_outside_workspace' });
    const inside = await ralphTest(home, 'test_assert', { workspace_id: 'links', assertions: [{ type: 'file_exists', path: 'in/x.txt' }] });
    expect(inside.json['passed']).toBe(true);
    // A dangling link is judged by where it points: writing through it would land outside.
    const dangling = await ralphTest(home, 'test_assert', { workspace_id: 'links', assertions: [{ type: 'file_exists', path: 'dangling.txt' }] });
    expect(dangling.json['error']).toMatchObject({ code: 'path_outside_workspace' });
    const glob = await ralphTest(home, 'test_snapshot', { workspace_id: 'links', include_patterns: ['../*'] });
    expect(glob.json['error']).toMatchObject({ code: 'path_outside_workspace' });
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
  });
});

describe('ralph test: error table', () => {
  it('an unknown workspace id lists the known ones', async () => {
    const home = toolsHome();
    await setup(home, 'alpha');
    await setup(home, 'beta');
    const r = await ralphTest(home, 'test_inspect', { workspace_id: 'gamma' });
    expect(r.exitCode).toBe(1);
    expect(r.json['error']).toMatchObject({ code: 'unknown_workspace', available_workspaces: ['alpha', 'beta'] });
    expect(r.stderr).toContain('known workspaces: alpha, beta');
  });

  it('a corrupt session file is a parse error with the line number', async () => {
    const home = toolsHome();
    const dir = await setup(home, 'broken');
    const path = writeSession(dir, ['loop.start', 'iteration.start', 'loop.exit']);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[1] = '{"ts": 1767000000000, "event": "iteration.st';
    writeFileSync(path, lines.join('\n'));
    const r = await ralphTest(home, 'test_inspect', { workspace_id: 'broken' });
    expect(r.exitCode).toBe(1);
    expect(r.json['error']).toMatchObject({ code: 'session_corrupt', line: 2 });
    expect((r.json['error'] as { message: string }).message).toContain('line 2');
    const a = await ralphTest(home, 'test_assert', { workspace_id: 'broken', assertions: [{ type: 'no_event', topic: 'x' }] });
    expect(a.json['error']).toMatchObject({ code: 'session_corrupt', line: 2 });
  });

  it('exhausted mock responses are an error naming how many were consumed; the run is still recorded', async () => {
    const home = toolsHome();
    await setup(home, 'short');
    const r = await ralphTest(home, 'test_run', {
      workspace_id: 'short',
      task: 'More than scripted',
      max_iterations: 5,
      mock_responses: [
        { output: 'a', files: { 'a.txt': 'a' } },
        { output: 'b', files: { 'b.txt': 'b' } },
      ],
    });
    expect(r.exitCode).toBe(1);
    expect(r.json['error']).toMatchObject({ code: 'mock_exhausted', consumed: 2, total: 2, run: { termination_reason: 'agent_failure', exit_code: 1 } });
    expect((r.json['error'] as { message: string }).message).toContain('2 of 2 mock responses were consumed');
    const a = await ralphTest(home, 'test_assert', {
      workspace_id: 'short',
      assertions: [
        { type: 'exit_code', expected: 1 },
        { type: 'event_count', topic: 'agent.result', exact: 3 },
      ],
    });
    expect(a.json['passed']).toBe(true);
  });

  it('test_run without responses for the mock backend says what to do', async () => {
    const home = toolsHome();
    await setup(home, 'bare');
    const r = await ralphTest(home, 'test_run', { workspace_id: 'bare', task: 'x' });
    expect(r.exitCode).toBe(1);
    expect(r.json['error']).toMatchObject({ code: 'no_mock_responses' });
  });

  it('a re-run on a dirty workspace warns and starts fresh', async () => {
    const home = toolsHome();
    await setup(home, 'again');
    const input = { workspace_id: 'again', task: 'twice', max_iterations: 1, mock_responses: [{ output: 'once', files: { 'x.txt': '1' } }] };
    const first = await ralphTest(home, 'test_run', input);
    const second = await ralphTest(home, 'test_run', input);
    expect(second.exitCode).toBe(0);
    expect(second.json['events_count']).toBe(first.json['events_count']);
    expect(second.json['termination_reason']).toBe('max_loops');
    expect((second.json['warnings'] as string[])[0]).toContain('state of an earlier run');
  });

  it('bad input: exit 2, every problem named, nothing written to stdout but the error document', async () => {
    const home = toolsHome();
    const r = await ralphTest(home, 'test_setup', { workspace_id: 'bad id!', config: { NOT_A_KEY: 1 }, extra: true });
    expect(r.exitCode).toBe(2);
    const problems = (r.json['error'] as { problems: string[] }).problems;
    expect(problems.some((p) => p.startsWith('workspace_id:'))).toBe(true);
    expect(problems.some((p) => p.includes('"extra"'))).toBe(true);
    const config = await ralphTest(home, 'test_setup', {
      workspace_id: 'cfg',
      config: { NOT_A_KEY: 1, MAX_CALLS_PER_HOUR: 'lots', VERIFY_COMMAND: 'npm test' },
    });
    expect(config.exitCode).toBe(2);
    const list = (config.json['error'] as { problems: string[] }).problems;
    expect(list).toHaveLength(2);
    expect(list.join('\n')).toContain('config.MAX_CALLS_PER_HOUR: "lots" is invalid');
    const unknown = await ralphTest(home, 'no_such_tool', {});
    expect(unknown.exitCode).toBe(2);
    expect(unknown.json['error']).toMatchObject({ code: 'bad_input' });
  });

  it('config overrides land in .ralphrc and apply to the run', async () => {
    const home = toolsHome();
    const dir = await setup(home, 'conf', { config: { VERIFY_COMMAND: 'test -f done.txt', VERIFY_MAX_ATTEMPTS: 1, ON_VERIFY_EXHAUSTED: 'abort' } });
    expect(readFileSync(join(dir, '.ralphrc'), 'utf8')).toMatch(/^VERIFY_COMMAND="test -f done.txt"$/m);
    const r = await ralphTest(home, 'test_run', {
      workspace_id: 'conf',
      task: 'x',
      max_iterations: 3,
      mock_responses: [{ output: 'no file yet', files: { 'other.txt': '1' } }],
    });
    expect(r.json).toMatchObject({ termination_reason: 'verify_aborted', exit_code: 6 });
  });

  it('removes workspaces idle for more than a day at start-up', async () => {
    const home = toolsHome();
    const dir = await setup(home, 'old');
    const gate = await ralphTest(home, 'verify', { command: 'exit 1', gate_id: 'old-gate' });
    expect(gate.json).toMatchObject({ success: false, verification: { attempts: 1 } });
    const gateFile = join(home, 'verify-gates', readdirSync(join(home, 'verify-gates')).find((n) => n.startsWith('old-gate')) ?? '');
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    utimesSync(gateFile, dayAgo, dayAgo);
    const registryPath = join(home, 'registry.json');
    const registry = JSON.parse(readFileSync(registryPath, 'utf8')) as { workspaces: Record<string, { used_at: number }> };
    (registry.workspaces['old'] as { used_at: number }).used_at -= 25 * 60 * 60 * 1000;
    writeFileSync(registryPath, JSON.stringify(registry));
    const foreign = join(home, 'ralph-test-foreign');
    mkdirSync(foreign);
    const r = await ralphTest(home, 'test_setup', { workspace_id: 'new' });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('removed stale test workspace old');
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(foreign)).toBe(true);
    expect(existsSync(gateFile)).toBe(false);
    // A forgotten gate starts again at attempt 1.
    expect((await ralphTest(home, 'verify', { gate_id: 'old-gate', command: 'exit 1' })).json).toMatchObject({ verification: { attempts: 1 } });
    const again = await ralphTest(home, 'test_inspect', { workspace_id: 'old' });
    expect(again.json['error']).toMatchObject({ code: 'unknown_workspace', available_workspaces: ['new'] });
  });

  it('a corrupt registry is reset with a warning and kept aside', async () => {
    const home = toolsHome();
    writeFileSync(join(home, 'registry.json'), '{ not json');
    const r = await ralphTest(home, 'test_setup', { workspace_id: 'fresh' });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('registry.json was corrupt');
    expect(readFileSync(join(home, 'registry.json.corrupt'), 'utf8')).toBe('{ not json');
  });
});
