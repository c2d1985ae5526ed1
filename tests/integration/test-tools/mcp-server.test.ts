// `ralph mcp` driven by the official MCP client over stdio, as Claude Code
// would start it (needs dist/: npm test builds first).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backendNamesFirst } from '../../../src/backends/registry.js';
import { git, gitRepo } from '../../helpers/git-repo.js';
import { ROOT, cleanEnv } from '../../helpers/run-cli.js';
import { toolsHome } from '../../helpers/test-tools.js';

type Json = Record<string, unknown>;
const open: Client[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connect(home: string, cwd: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'bin', 'ralph.js'), 'mcp'],
    cwd,
    env: cleanEnv({ RALPH_TEST_TOOLS_HOME: home }),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'ralph-tests', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  return client;
}

/** Calls a tool; returns the JSON document of its text content and whether it was an error. */
async function call(client: Client, name: string, args: Json): Promise<{ isError: boolean; json: Json; text: string }> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text: string }>;
  const text = content.map((c) => c.text).join('\n');
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = {};
  }
  if (result.isError !== true) expect(result.structuredContent).toEqual(json);
  return { isError: result.isError === true, json, text };
}

describe('ralph mcp', () => {
  it('lists every tool with its input schema', async () => {
    const client = await connect(toolsHome(), toolsHome());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'ralph_status',
      'test_assert',
      'test_cleanup',
      'test_diff',
      'test_inspect',
      'test_mock_backend',
      'test_run',
      'test_setup',
      'test_snapshot',
      'verify',
    ]);
    const byName = new Map(tools.map((t) => [t.name, t]));
    const run = byName.get('test_run')?.inputSchema as { properties: Record<string, Json>; required: string[] };
    expect(run.required.sort()).toEqual(['task', 'workspace_id']);
    expect(run.properties['backend']).toMatchObject({ enum: backendNamesFirst('mock') });
    const verify = byName.get('verify')?.inputSchema as { properties: Record<string, Json> };
    expect(verify.properties['gate_action']).toMatchObject({ enum: ['retry', 'skip', 'abort'] });
    const assert = byName.get('test_assert')?.inputSchema as { properties: Record<string, { items?: { oneOf?: unknown[] } }> };
    expect(assert.properties['assertions']?.items?.oneOf).toHaveLength(12);
    expect(byName.get('test_setup')?.description).toContain('isolated');
  });

  it('runs the seed example scenario: setup, mock, run, assert, inspect timeline, cleanup', async () => {
    const home = toolsHome();
    const client = await connect(home, home);
    const setup = await call(client, 'test_setup', { workspace_id: 'planner_test_001', scratchpad: '## Plan\n(empty)' });
    expect(setup.isError).toBe(false);
    const mock = await call(client, 'test_mock_backend', {
      workspace_id: 'planner_test_001',
      responses: [{ hat: 'planner', output: '<event topic="build.task">\n## Task\nImplement feature X\n</event>' }],
    });
    expect(mock.json).toMatchObject({ configured: true, response_count: 1 });
    expect(mock.json['notes']).toEqual([expect.stringContaining('hat is accepted and ignored')]);
    const progress: string[] = [];
    const raw = await client.callTool(
      { name: 'test_run', arguments: { workspace_id: 'planner_test_001', task: 'Implement user authentication', backend: 'mock', max_iterations: 1 } },
      undefined,
      {
        onprogress: (p) => progress.push(p.message ?? ''),
        resetTimeoutOnProgress: true,
      },
    );
    const run = JSON.parse((raw.content as Array<{ text: string }>)[0]?.text ?? '{}') as Json;
    expect(run).toMatchObject({ exit_code: 7, termination_reason: 'max_loops', iterations: 1, mock_responses: { consumed: 1, remaining: 0, total: 1 } });
    expect(progress).toContain('iteration 1 of at most 1');
    const assert = await call(client, 'test_assert', {
      workspace_id: 'planner_test_001',
      assertions: [
        { type: 'exit_code', expected: 7 },
        { type: 'termination_reason', expected: 'MaxIterations' },
        { type: 'event_occurred', topic: 'analysis', payload_pattern: 'build\\.task' },
        { type: 'event_sequence', topics: ['loop.start', 'agent.result', 'loop.exit'] },
      ],
    });
    expect(assert.json).toMatchObject({ passed: true, failed_count: 0 });
    const timeline = await call(client, 'test_inspect', { workspace_id: 'planner_test_001', format: 'timeline' });
    expect(timeline.json['timeline']).toEqual([
      expect.objectContaining({ iteration: 1, hat: 'ralph', events: ['iteration.start', 'agent.result', 'analysis', 'iteration.end'] }),
    ]);
    const status = await call(client, 'ralph_status', { workspace_id: 'planner_test_001' });
    expect(status.json).toMatchObject({ exit_reason: 'max_loops', loop_count: 1, running: false });
    const cleanup = await call(client, 'test_cleanup', { workspace_id: 'planner_test_001' });
    expect(cleanup.json).toEqual({ deleted: true, preserved_files: [] });
    expect(existsSync(setup.json['workspace_path'] as string)).toBe(false);
  });

  it('exits on its own when the client closes stdin (no signal needed)', async () => {
    const home = toolsHome();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'bin', 'ralph.js'), 'mcp'],
      cwd: home,
      env: cleanEnv({ RALPH_TEST_TOOLS_HOME: home }),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'ralph-tests', version: '1.0.0' });
    await client.connect(transport);
    await client.listTools();
    // close() ends stdin and sends SIGTERM only if the server is still there 2 s later.
    await client.close();
    expect(stderr).toContain('stdin closed; shutting down');
    expect(stderr).not.toContain('SIGTERM');
  });

  it('drives verify through bounce-back, escalation, retry, a pass, skip and abort', async () => {
    const repo = gitRepo({ 'README.md': '# r\n' });
    const client = await connect(toolsHome(), repo);
    const gate = { command: 'test -f fixed.txt || { echo "FAIL fixed.txt missing" >&2; exit 1; }', gate_id: 'fix', max: 3 };
    const first = await call(client, 'verify', gate);
    expect(first.json).toMatchObject({
      success: false,
      verification: { attempts: 1, passed: false, status: 'pending', gateId: 'fix', maxAttempts: 3, workingDir: repo, lastResult: { exitCode: 1 } },
    });
    expect(first.json['content']).toContain('## Shell Verification FAILED (Attempt 1/3)');
    expect(first.json['content']).toContain('FAIL fixed.txt missing');
    expect((await call(client, 'verify', gate)).json['content']).toContain('(Attempt 2/3)');
    const third = await call(client, 'verify', { gate_id: 'fix' });
    expect(third.json).toMatchObject({ success: false, verification: { attempts: 3, status: 'escalated' } });
    expect(third.json['content']).toContain('## Shell Verification FAILED - Maximum Attempts Reached');
    expect(third.json['content']).toContain('**Attempts:** 3/3');
    expect(third.json['content']).toContain('- **retry**: Reset attempt count and try again');
    const waiting = await call(client, 'verify', { gate_id: 'fix' });
    expect(waiting.json['content']).toContain('nothing was run');
    expect(waiting.json).toMatchObject({ verification: { status: 'escalated', attempts: 3 } });
    const retry = await call(client, 'verify', { gate_id: 'fix', gate_action: 'retry' });
    expect(retry.json).toMatchObject({ verification: { attempts: 1, status: 'pending' } });
    writeFileSync(join(repo, 'fixed.txt'), 'ok\n');
    const pass = await call(client, 'verify', { gate_id: 'fix' });
    expect(pass.json).toMatchObject({ success: true, verification: { passed: true, attempts: 2, status: 'passed', lastResult: { exitCode: 0 } } });
    expect(pass.json['content']).toContain('Shell Verification PASSED on attempt 2');

    const skipped = { command: 'exit 1', gate_id: 'skip-me', max: 1 };
    expect((await call(client, 'verify', skipped)).json).toMatchObject({ verification: { status: 'escalated' } });
    const skip = await call(client, 'verify', { gate_id: 'skip-me', gate_action: 'skip' });
    expect(skip.json).toMatchObject({ success: true, verification: { status: 'skipped', passed: false } });
    expect((await call(client, 'verify', { gate_id: 'skip-me' })).json['content']).toContain('This gate was skipped; nothing was run');

    const aborted = { command: 'exit 2', gate_id: 'abort-me', max: 1 };
    await call(client, 'verify', aborted);
    const abort = await call(client, 'verify', { gate_id: 'abort-me', gate_action: 'abort' });
    expect(abort.json).toMatchObject({ success: false, verification: { status: 'aborted' } });
    expect(abort.json['content']).toContain('Verification aborted');
  });

  it('verify checkpoints the work tree and rolls a failed attempt back', async () => {
    const repo = gitRepo({ 'app.txt': 'start\n' });
    const client = await connect(toolsHome(), repo);
    const gate = { command: 'grep -q good app.txt', gate_id: 'cp', checkpoint: true, rollback: true };
    const baseline = await call(client, 'verify', gate);
    expect(baseline.json).toMatchObject({ verification: { attempts: 1, checkpoint: expect.any(String) } });
    writeFileSync(join(repo, 'app.txt'), 'broken\n');
    writeFileSync(join(repo, 'junk.txt'), 'junk\n');
    const failed = await call(client, 'verify', { gate_id: 'cp' });
    expect(failed.json).toMatchObject({ verification: { attempts: 2, rolledBack: { attemptRef: expect.stringMatching(/^refs\/ralph\/attempts\//) } } });
    expect(failed.json['content']).toContain('rolled back to checkpoint');
    expect(readFileSync(join(repo, 'app.txt'), 'utf8')).toBe('start\n');
    expect(existsSync(join(repo, 'junk.txt'))).toBe(false);
    writeFileSync(join(repo, 'app.txt'), 'good\n');
    const pass = await call(client, 'verify', { gate_id: 'cp' });
    expect(pass.json).toMatchObject({ success: true, verification: { passed: true, attempts: 3 } });
    expect(git(repo, 'stash', 'list')).not.toContain('ralph checkpoint');
    expect(readFileSync(join(repo, 'app.txt'), 'utf8')).toBe('good\n');
  });

  it('verify reports a timeout as such', async () => {
    const client = await connect(toolsHome(), toolsHome());
    const r = await call(client, 'verify', { command: 'sleep 10', timeout: 1, gate_id: 'slow' });
    expect(r.json).toMatchObject({ success: false, verification: { lastResult: { timedOut: true, exitCode: null } } });
    expect(r.json['content']).toContain('**Exit Code:** timed out after 1s');
  });

  it('answers malformed arguments with errors that say what was wrong', async () => {
    const home = toolsHome();
    const client = await connect(home, home);
    const noCommand = await call(client, 'verify', {});
    expect(noCommand.isError).toBe(true);
    expect(noCommand.text).toContain('give command');
    const badType = await call(client, 'test_setup', { workspace_id: 42 });
    expect(badType.isError).toBe(true);
    expect(badType.text).toMatch(/workspace_id/);
    expect(badType.text).toMatch(/expected string/);
    const badAction = await call(client, 'verify', { gate_id: 'x', gate_action: 'maybe' });
    expect(badAction.isError).toBe(true);
    expect(badAction.text).toContain('gate_action');
    const typo = await call(client, 'test_cleanup', { workspace_id: 'w', preserve_sesion: true });
    expect(typo.isError).toBe(true);
    expect(typo.text).toContain('preserve_sesion');
    const unknown = await call(client, 'test_inspect', { workspace_id: 'nobody' });
    expect(unknown.isError).toBe(true);
    expect(unknown.json['error']).toMatchObject({ code: 'unknown_workspace', available_workspaces: [] });
    const traversal = await call(client, 'test_setup', { workspace_id: 'w', fixtures: { '../../etc/x': 'no' } });
    expect(traversal.json['error']).toMatchObject({ code: 'path_outside_workspace' });
    const noWorkingDir = await call(client, 'verify', { command: 'true', gate_id: 'nowhere', working_dir: join(home, 'missing') });
    expect(noWorkingDir.isError).toBe(true);
    expect(noWorkingDir.text).toContain(`working_dir ${join(home, 'missing')} is not a directory`);
    const noProject = await call(client, 'ralph_status', { project_dir: join(home, 'missing') });
    expect(noProject.isError).toBe(true);
    expect(noProject.text).toContain(`project_dir ${join(home, 'missing')} is not a directory`);
  });
});
