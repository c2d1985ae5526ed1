// `ralph mcp` at the byte level: stdout carries protocol messages only, and
// the server exits 0 when its client closes stdin, stopping what still runs
// (needs dist/: npm test builds first).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cleanEnv } from '../../helpers/run-cli.js';
import { toolsHome } from '../../helpers/test-tools.js';
import { waitFor } from '../../helpers/wait-for.js';

interface Server {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  stderr: () => string;
  send(message: Record<string, unknown>): void;
  response(id: number): Promise<Record<string, unknown>>;
  exit: Promise<number | null>;
}

function start(home: string): Server {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'ralph.js'), 'mcp'], { cwd: home, env: cleanEnv({ RALPH_TEST_TOOLS_HOME: home }), stdio: 'pipe' });
  const lines: string[] = [];
  let buffer = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts.filter((l) => l !== ''));
    for (const w of waiters.splice(0)) w();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (err += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const find = (id: number): Record<string, unknown> | undefined => lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((m) => m['id'] === id);
  return {
    child,
    lines,
    stderr: () => err,
    send: (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
    async response(id) {
      for (;;) {
        const found = find(id);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    exit,
  };
}

async function initialize(server: Server): Promise<void> {
  server.send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  await server.response(1);
  server.send({ method: 'notifications/initialized' });
}

describe('ralph mcp over raw stdio', () => {
  it('writes only JSON-RPC to stdout, warnings to stderr, and exits 0 when stdin closes', async () => {
    const home = toolsHome();
    writeFileSync(join(home, 'registry.json'), 'garbage');
    const server = start(home);
    await initialize(server);
    server.send({ id: 2, method: 'tools/call', params: { name: 'test_setup', arguments: { workspace_id: 'raw' } } });
    const setup = await server.response(2);
    expect(JSON.stringify(setup)).toContain('ralph-test-raw');
    server.child.stdin.end();
    expect(await server.exit).toBe(0);
    for (const line of server.lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(server.stderr()).toContain('registry.json was corrupt');
    expect(server.stderr()).toContain('stdin closed; shutting down');
  });

  it('answers a request over 10 MiB with an error naming the limit, and keeps serving', async () => {
    const home = toolsHome();
    const server = start(home);
    await initialize(server);
    const huge = 'x'.repeat(11 * 1024 * 1024);
    // The id comes after the huge params, as some clients write it.
    server.child.stdin.write(
      `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"test_setup","arguments":{"workspace_id":"big","fixtures":{"big.txt":"${huge}"}}},"id":2}\n`,
    );
    const answer = await Promise.race([server.response(2), server.exit.then((code) => ({ exited: code }))]);
    expect(answer).toMatchObject({ id: 2, error: { code: -32600 } });
    expect((answer as { error: { message: string } }).error.message).toContain('at most 10 MiB (10485760 bytes)');
    server.send({ id: 3, method: 'tools/list' });
    expect(await server.response(3)).toMatchObject({ result: { tools: expect.any(Array) } });
    expect(existsSync(join(home, 'ralph-test-big'))).toBe(false);
    server.child.stdin.end();
    expect(await server.exit).toBe(0);
    expect(server.stderr()).toContain('discarded a message over 10 MiB (id 2)');
  });

  it('test_setup with fixtures "a" and "a/b" (either order) is a validation error naming both', async () => {
    const home = toolsHome();
    const server = start(home);
    await initialize(server);
    const cases: Array<[number, Record<string, string>]> = [
      [2, { a: 'file', 'a/b': 'nested' }],
      [3, { 'a/b': 'nested', a: 'file' }],
    ];
    for (const [id, fixtures] of cases) {
      server.send({ id, method: 'tools/call', params: { name: 'test_setup', arguments: { workspace_id: `nest${id}`, fixtures } } });
      const r = (await server.response(id)) as { result: { isError: boolean; content: Array<{ text: string }> } };
      expect(r.result.isError).toBe(true);
      const error = (JSON.parse(r.result.content[0]?.text ?? '{}') as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('bad_input');
      expect(error.message).toContain('fixtures "a" and "a/b" conflict');
      expect(error.message).not.toContain('EEXIST');
      expect(existsSync(join(home, `ralph-test-nest${id}`))).toBe(false);
    }
    server.child.stdin.end();
    expect(await server.exit).toBe(0);
  });

  it('stops a running test_run when the client goes away', async () => {
    const home = toolsHome();
    const server = start(home);
    await initialize(server);
    server.send({ id: 2, method: 'tools/call', params: { name: 'test_setup', arguments: { workspace_id: 'busy' } } });
    const setup = (await server.response(2)) as { result: { structuredContent: { workspace_path: string } } };
    const dir = setup.result.structuredContent.workspace_path;
    server.send({
      id: 3,
      method: 'tools/call',
      params: {
        name: 'test_run',
        arguments: { workspace_id: 'busy', task: 'wait', max_runtime_secs: 60, mock_responses: [{ output: 'slow', delay_ms: 30_000 }] },
      },
    });
    const status = join(dir, '.ralph', 'status.json');
    await waitFor(() => existsSync(status), 'the run to write its status');
    const pid = (JSON.parse(readFileSync(status, 'utf8')) as { pid: number }).pid;
    server.child.stdin.end();
    expect(await server.exit).toBe(0);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
