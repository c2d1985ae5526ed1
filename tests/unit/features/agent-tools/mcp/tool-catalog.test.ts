import { describe, expect, it } from 'vitest';
import { callTool, findTool, TOOLS } from '../../../../../src/features/agent-tools/mcp/tool-catalog.js';
import { ToolError } from '../../../../../src/features/agent-tools/test/tool-error.js';
import type { ToolContext } from '../../../../../src/features/agent-tools/test/tool-home.js';

const ctx: ToolContext = {
  env: { RALPH_TEST_TOOLS_HOME: '/nonexistent/never-used' },
  cwd: '/',
  now: () => 0,
  runner: { run: () => Promise.reject(new Error('no process may run in this test')) },
  warn: () => undefined,
};

async function problems(name: string, input: unknown): Promise<string[]> {
  const tool = findTool(name);
  if (!tool) throw new Error(name);
  try {
    await callTool(tool, input, ctx);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('bad_input');
    return (error as ToolError).details['problems'] as string[];
  }
  throw new Error('expected bad input');
}

describe('tool catalog', () => {
  it('has the eight seed tools, verify and ralph_status', () => {
    expect(TOOLS.map((t) => t.name)).toEqual([
      'test_setup',
      'test_mock_backend',
      'test_run',
      'test_assert',
      'test_inspect',
      'test_snapshot',
      'test_diff',
      'test_cleanup',
      'verify',
      'ralph_status',
    ]);
  });

  it.each([
    ['test_setup', 'test_setup'],
    ['setup', 'test_setup'],
    ['mock-backend', 'test_mock_backend'],
    ['verify', 'verify'],
    ['ralph_status', 'ralph_status'],
  ])('finds %s as %s', (name, expected) => {
    expect(findTool(name)?.name).toBe(expected);
  });

  it('does not find unknown tools', () => {
    expect(findTool('test_record')).toBeUndefined();
  });

  it('names every problem of the input with its path', async () => {
    expect(await problems('test_assert', { workspace_id: 'w', assertions: [{ type: 'exit_code' }, { type: 'event_count', topic: 'x' }] })).toEqual([
      'assertions[0].expected: Invalid input: expected number, received undefined',
      'assertions[1]: give at least one of min, max, exact',
    ]);
    expect(await problems('test_run', { workspace_id: 'w', task: 'x', backend: 'kiro', max_iterations: 0 })).toEqual([
      expect.stringMatching(/^backend: /),
      expect.stringMatching(/^max_iterations: /),
    ]);
    expect(await problems('test_setup', { workspace_id: '../up' })).toEqual([expect.stringContaining('workspace_id: must be 1-64 letters')]);
    expect(await problems('verify', {})).toEqual([expect.stringContaining('give command')]);
    expect(await problems('ralph_status', { project_dir: '.', workspace_id: 'w' })).toEqual([expect.stringContaining('not both')]);
    expect(await problems('test_cleanup', { workspace_id: 'w', preserve_sesion: true })).toEqual([expect.stringContaining('preserve_sesion')]);
  });

  it('accepts the seed example inputs', () => {
    const ok = (name: string, input: unknown): boolean => findTool(name)?.schema.safeParse(input).success === true;
    expect(ok('test_setup', { workspace_id: 'planner_test_001', scratchpad: '## Plan\n(empty)' })).toBe(true);
    expect(
      ok('test_mock_backend', { workspace_id: 'planner_test_001', responses: [{ hat: 'planner', output: '<event topic="build.task">...</event>' }] }),
    ).toBe(true);
    expect(ok('test_run', { workspace_id: 'planner_test_001', task: 'Implement user authentication', backend: 'mock', max_iterations: 1 })).toBe(true);
    expect(
      ok('test_assert', {
        workspace_id: 'w',
        assertions: [
          { type: 'exit_code', expected: 2 },
          { type: 'event_occurred', topic: 'build.task' },
          { type: 'event_sequence', topics: ['task.start', 'build.task'] },
        ],
      }),
    ).toBe(true);
    expect(ok('test_inspect', { workspace_id: 'w', format: 'timeline' })).toBe(true);
    expect(ok('test_cleanup', { workspace_id: 'w' })).toBe(true);
    expect(ok('verify', { command: 'npm test', max: 10, timeout: 120, checkpoint: true, rollback: true })).toBe(true);
  });
});
