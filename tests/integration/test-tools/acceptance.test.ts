// Seed 003 "Acceptance Criteria", every Given/When/Then, through `ralph test …`
// spawned as a process (needs dist/: npm test builds first).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonLines, resultJson, statusBlock } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { ralphTest, toolsHome, writeSession } from '../../helpers/test-tools.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

async function setup(home: string, id: string, input: Record<string, unknown> = {}): Promise<string> {
  const r = await ralphTest(home, 'test_setup', { workspace_id: id, ...input });
  expect(r.exitCode, r.stderr).toBe(0);
  return r.json['workspace_path'] as string;
}

describe('seed 003 acceptance: setup and teardown', () => {
  it('test_setup creates an isolated directory and registers the workspace', async () => {
    const home = toolsHome();
    const r = await ralphTest(home, 'test_setup', { workspace_id: 'test_001' });
    expect(r.exitCode).toBe(0);
    expect(r.json).toMatchObject({ workspace_id: 'test_001', workspace_path: join(home, 'ralph-test-test_001') });
    const dir = r.json['workspace_path'] as string;
    expect(existsSync(join(dir, '.ralph', 'PROMPT.md'))).toBe(true);
    expect(existsSync(join(dir, '.git'))).toBe(true);
    expect(r.json['created_files']).toEqual(expect.arrayContaining(['.ralph/PROMPT.md', '.ralph/fix_plan.md', '.ralphrc']));
    // Registered: a later call in another process finds it.
    const registry = JSON.parse(readFileSync(join(home, 'registry.json'), 'utf8')) as { workspaces: Record<string, { path: string }> };
    expect(registry.workspaces['test_001']?.path).toBe(dir);
    const inspect = await ralphTest(home, 'test_snapshot', { workspace_id: 'test_001' });
    expect(inspect.exitCode).toBe(0);
  });

  it('test_cleanup removes every file and deregisters the id', async () => {
    const home = toolsHome();
    const dir = await setup(home, 'fx', { fixtures: { 'src/main.rs': 'fn main() {}\n', 'docs/a.md': '# a\n' } });
    expect(readFileSync(join(dir, 'src/main.rs'), 'utf8')).toBe('fn main() {}\n');
    const r = await ralphTest(home, 'test_cleanup', { workspace_id: 'fx' });
    expect(r.exitCode).toBe(0);
    expect(r.json).toEqual({ deleted: true, preserved_files: [] });
    expect(existsSync(dir)).toBe(false);
    const again = await ralphTest(home, 'test_snapshot', { workspace_id: 'fx' });
    expect(again.exitCode).toBe(1);
    expect(again.json['error']).toMatchObject({ code: 'unknown_workspace', available_workspaces: [] });
  });

  it('test_cleanup with preserve_session keeps only session.jsonl', async () => {
    const home = toolsHome();
    const dir = await setup(home, 'keep', { fixtures: { 'src/a.txt': 'a\n' } });
    const session = writeSession(dir, ['loop.start', 'loop.exit']);
    const r = await ralphTest(home, 'test_cleanup', { workspace_id: 'keep', preserve_session: true });
    expect(r.exitCode).toBe(0);
    expect(r.json).toEqual({ deleted: true, preserved_files: [session] });
    expect(filesUnder(dir)).toEqual(['.ralph/logs/session.jsonl']);
    // Still readable for debugging, under the same id.
    const inspect = await ralphTest(home, 'test_inspect', { workspace_id: 'keep' });
    expect(inspect.json['total_matched']).toBe(2);
  });
});

describe('seed 003 acceptance: test execution', () => {
  it('consumes three mock responses in order over three iterations and records every event', async () => {
    const home = toolsHome();
    const dir = await setup(home, 'three');
    const responses = [1, 2, 3].map((n) => ({
      output: `step ${n}`,
      files: { [`src/step${n}.txt`]: `${n}\n` },
      cost_usd: 0.5,
      cost_estimated: n === 3,
      input_tokens: 10,
    }));
    expect((await ralphTest(home, 'test_mock_backend', { workspace_id: 'three', responses })).json).toEqual({ configured: true, response_count: 3 });
    const r = await ralphTest(home, 'test_run', { workspace_id: 'three', task: 'Do three steps', max_iterations: 3 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ exit_code: 7, termination_reason: 'max_loops', iterations: 3, mock_responses: { consumed: 3, remaining: 0, total: 3 } });
    expect(r.json).toMatchObject({ backend: 'mock', usage: { cost_usd: 1.5, cost_estimated: true, input_tokens: 30, output_tokens: 0, calls: 3 } });
    const records = readJsonLines(r.json['session_file'] as string);
    expect(r.json['events_count']).toBe(records.length);
    const agent = records.filter((e) => e['event'] === 'agent.result').map((e) => (e['data'] as Record<string, unknown>)['mock_response']);
    expect(agent).toEqual([0, 1, 2]);
    expect(records[0]?.['event']).toBe('loop.start');
    expect(records.at(-1)?.['event']).toBe('loop.exit');
    expect(records.filter((e) => e['event'] === 'iteration.end')).toHaveLength(3);
    expect(readFileSync(join(dir, 'src/step3.txt'), 'utf8')).toBe('3\n');
    expect(readFileSync(join(dir, '.ralph/PROMPT.md'), 'utf8')).toContain('Do three steps');
  });

  it('stops a run past max_runtime_secs: termination_reason max_runtime, partial session kept', async () => {
    const home = toolsHome();
    await setup(home, 'slow');
    // The answer would come after 300 s, past the test's own limit: only the stop ends the run.
    await ralphTest(home, 'test_mock_backend', { workspace_id: 'slow', responses: [{ output: 'too slow', delay_ms: 300_000 }] });
    const r = await ralphTest(home, 'test_run', { workspace_id: 'slow', task: 'Be slow', max_runtime_secs: 1 });
    expect(r.exitCode).toBe(0);
    expect(r.json).toMatchObject({ termination_reason: 'max_runtime', exit_code: 7, killed_after_secs: 1 });
    expect(r.json['elapsed_secs'] as number).toBeGreaterThanOrEqual(1);
    // The session recorded until the stop is kept, from its start to the stop. How far the run got
    // in one second (its first call started or not) depends on the machine's load, so not asserted.
    const events = readJsonLines(r.json['session_file'] as string).map((e) => e['event']);
    expect(events[0]).toBe('loop.start');
    expect(events.at(-1)).toBe('loop.exit');
    expect(events).not.toContain('analysis');
    const check = await ralphTest(home, 'test_assert', { workspace_id: 'slow', assertions: [{ type: 'termination_reason', expected: 'MaxRuntime' }] });
    expect(check.json['passed']).toBe(true);
  });

  it('records the responses of a real backend (claude; here the fake claude CLI) for inspection', async () => {
    const home = toolsHome();
    await setup(home, 'claude');
    const state = tempDir('fake-claude-state-');
    const scenario = join(state, 'scenario.json');
    writeFileSync(
      scenario,
      JSON.stringify({
        calls: [
          { stdout: resultJson(`Implemented the parser.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`), shell: 'echo done > parser.txt' },
        ],
      }),
    );
    const r = await ralphTest(home, 'test_run', {
      workspace_id: 'claude',
      task: 'Write a parser',
      backend: 'claude',
      max_iterations: 1,
      env: { FAKE_CLAUDE_SCENARIO: scenario, FAKE_CLAUDE_STATE: state },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ exit_code: 7, termination_reason: 'max_loops', iterations: 1 });
    expect(r.json['mock_responses']).toBeUndefined();
    const inspect = await ralphTest(home, 'test_inspect', { workspace_id: 'claude', filter: { topics: ['analysis'] } });
    const records = inspect.json['records'] as Array<{ data: Record<string, unknown> }>;
    expect(records[0]?.data['summary']).toContain('Implemented the parser');
  });
});

describe('seed 003 acceptance: assertions', () => {
  it('exit_code 0 passes after a run that completed', async () => {
    const home = toolsHome();
    await setup(home, 'done', { scratchpad: '# Plan\n- [ ] the only task\n' });
    const r = await ralphTest(home, 'test_run', {
      workspace_id: 'done',
      task: 'Finish the plan',
      mock_responses: [{ output: 'Finished.', check_tasks: 1, files: { 'done.txt': 'yes\n' } }],
    });
    expect(r.json).toMatchObject({ exit_code: 0, termination_reason: 'plan_complete' });
    const a = await ralphTest(home, 'test_assert', { workspace_id: 'done', assertions: [{ type: 'exit_code', expected: 0 }] });
    expect(a.exitCode).toBe(0);
    expect(a.json).toEqual({ passed: true, results: [{ assertion: 'exit_code', passed: true, expected: 0, actual: 0 }], failed_count: 0 });
  });

  it('event_sequence is a subsequence match and fails in the wrong order', async () => {
    const home = toolsHome();
    const dir = await setup(home, 'seq');
    writeSession(dir, ['task.start', 'build.task', 'build.done']);
    const r = await ralphTest(home, 'test_assert', {
      workspace_id: 'seq',
      assertions: [
        { type: 'event_sequence', topics: ['task.start', 'build.done'] },
        { type: 'event_sequence', topics: ['build.done', 'task.start'] },
      ],
    });
    expect(r.exitCode).toBe(0);
    const results = r.json['results'] as Array<Record<string, unknown>>;
    expect(results.map((x) => x['passed'])).toEqual([true, false]);
    expect(results[1]?.['message']).toContain('no "task.start" event after "build.done"');
    expect(r.json).toMatchObject({ passed: false, failed_count: 1 });
  });

  it('scratchpad_contains reads the fix plan', async () => {
    const home = toolsHome();
    await setup(home, 'pad', { scratchpad: '# Plan\n\n## Completed\n- [x] setup\n' });
    const r = await ralphTest(home, 'test_assert', { workspace_id: 'pad', assertions: [{ type: 'scratchpad_contains', pattern: 'Completed' }] });
    expect(r.json).toMatchObject({ passed: true, failed_count: 0 });
  });

  it('file_exists passes for a file the run created', async () => {
    const home = toolsHome();
    await setup(home, 'made');
    await ralphTest(home, 'test_run', {
      workspace_id: 'made',
      task: 'Create main',
      max_iterations: 1,
      mock_responses: [{ output: 'created', files: { 'src/main.rs': 'fn main() {}\n' } }],
    });
    const r = await ralphTest(home, 'test_assert', {
      workspace_id: 'made',
      assertions: [
        { type: 'file_exists', path: 'src/main.rs' },
        { type: 'file_exists', path: 'src/missing.rs' },
      ],
    });
    expect(r.json['results']).toEqual([
      { assertion: 'file_exists', passed: true, path: 'src/main.rs' },
      { assertion: 'file_exists', passed: false, path: 'src/missing.rs', message: 'file not found: src/missing.rs' },
    ]);
    const strict = await ralphTest(home, 'test_assert', { workspace_id: 'made', assertions: [{ type: 'file_exists', path: 'src/missing.rs' }] }, ['--strict']);
    expect(strict.exitCode).toBe(1);
    expect(strict.json['failed_count']).toBe(1);
  });
});

describe('seed 003 acceptance: inspection', () => {
  it('limit 10 of 50 events returns the first 10 with truncated: true', async () => {
    const home = toolsHome();
    const dir = await setup(home, 'fifty');
    writeSession(
      dir,
      Array.from({ length: 50 }, (_, i) => ({ event: `e.${i}` })),
    );
    const r = await ralphTest(home, 'test_inspect', { workspace_id: 'fifty', limit: 10 });
    const records = r.json['records'] as Array<{ event: string }>;
    expect(records.map((x) => x.event)).toEqual(Array.from({ length: 10 }, (_, i) => `e.${i}`));
    expect(r.json).toMatchObject({ total_matched: 50, truncated: true });
  });

  it('topics ["build.*"] returns only the build events', async () => {
    const home = toolsHome();
    const dir = await setup(home, 'mixed');
    writeSession(dir, ['task.start', 'build.task', 'iteration.start', 'build.done', 'verify.result', 'build.blocked', 'builder.note']);
    const r = await ralphTest(home, 'test_inspect', { workspace_id: 'mixed', filter: { topics: ['build.*'] } });
    expect((r.json['records'] as Array<{ event: string }>).map((x) => x.event)).toEqual(['build.task', 'build.done', 'build.blocked']);
  });

  it('timeline groups a multi-iteration run by iteration with durations', async () => {
    const home = toolsHome();
    await setup(home, 'multi');
    await ralphTest(home, 'test_run', {
      workspace_id: 'multi',
      task: 'Two steps',
      max_iterations: 2,
      mock_responses: [
        { output: 'one', files: { 'a.txt': '1' } },
        { output: 'two', files: { 'b.txt': '2' } },
      ],
    });
    const r = await ralphTest(home, 'test_inspect', { workspace_id: 'multi', format: 'timeline' }, ['--format', 'timeline']);
    const timeline = r.json['timeline'] as Array<{ iteration: number; events: string[]; duration_ms: number }>;
    expect(timeline.map((t) => t.iteration)).toEqual([1, 2]);
    for (const t of timeline) {
      expect(t.events[0]).toBe('iteration.start');
      expect(t.events).toContain('agent.result');
      expect(t.duration_ms).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('seed 003 acceptance: snapshots and diffs', () => {
  it('a snapshot, changed files, and test_diff against current gives changed files and line diffs', async () => {
    const home = toolsHome();
    const dir = await setup(home, 'snap', { fixtures: { 'src/main.rs': 'fn main() {\n    println!("hi");\n}\n', 'old.txt': 'bye\n' } });
    const snap = await ralphTest(home, 'test_snapshot', { workspace_id: 'snap' });
    expect(snap.json['snapshot_id']).toBe('snap_snap_001');
    expect((snap.json['files'] as Record<string, string>)['src/main.rs']).toContain('println!("hi")');
    writeFileSync(join(dir, 'src/main.rs'), 'fn main() {\n    println!("hello");\n}\n');
    writeFileSync(join(dir, 'src/utils.rs'), 'pub fn x() {}\n');
    writeFileSync(join(dir, 'old.txt'), '');
    const r = await ralphTest(home, 'test_diff', { workspace_id: 'snap', baseline: 'snap_snap_001', compare_to: 'current' });
    expect(r.exitCode).toBe(0);
    expect(r.json).toMatchObject({ changed_files: ['old.txt', 'src/main.rs'], added_files: ['src/utils.rs'], deleted_files: [] });
    const diff = (r.json['diffs'] as Record<string, { additions: number; deletions: number; hunks: Array<{ start: number; end: number; content: string }> }>)[
      'src/main.rs'
    ];
    expect(diff).toMatchObject({ additions: 1, deletions: 1 });
    expect(diff?.hunks[0]?.content).toContain('-    println!("hi");\n+    println!("hello");');
    const initial = await ralphTest(home, 'test_diff', { workspace_id: 'snap', baseline: 'initial' });
    expect(initial.json['added_files']).toEqual(['src/utils.rs']);
  });
});
