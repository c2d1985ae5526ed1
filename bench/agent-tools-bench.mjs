// Latency of the agent-facing tools (issue 9): one `ralph test` call, a whole
// seed-003 scenario through the CLI, and `ralph mcp` from spawn to a listed
// tool set and per call. No spec budget; printed so regressions show.
import { spawn, spawnSync } from 'node:child_process';
import { cleanup, env, median, p90, printTable, RALPH, row, tempDir } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const home = tempDir('ralph-bench-tools-');
const toolEnv = env({ RALPH_TEST_TOOLS_HOME: home });

function tool(name, input) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [RALPH, 'test', name, '--input', '-'], { cwd: home, env: toolEnv, input: JSON.stringify(input), encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`ralph test ${name} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return ms;
}

function scenario(id) {
  const start = process.hrtime.bigint();
  tool('test_setup', { workspace_id: id, scratchpad: '## Plan\n- [ ] one\n' });
  tool('test_mock_backend', { workspace_id: id, responses: [{ output: 'done', check_tasks: 1, files: { 'a.txt': 'a' } }] });
  tool('test_run', { workspace_id: id, task: 'bench', max_iterations: 2 });
  tool('test_assert', {
    workspace_id: id,
    assertions: [
      { type: 'exit_code', expected: 0 },
      { type: 'file_exists', path: 'a.txt' },
    ],
  });
  tool('test_cleanup', { workspace_id: id });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Spawns `ralph mcp`, initializes, lists tools, makes `calls` tool calls; returns [ready ms, per-call ms[]]. */
function mcpSession(calls) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [RALPH, 'mcp'], { cwd: home, env: toolEnv, stdio: ['pipe', 'pipe', 'ignore'] });
    let buffer = '';
    let ready = 0;
    const perCall = [];
    let sentAt = 0n;
    let next = 2;
    const send = (msg) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
    const callNext = () => {
      if (next - 2 >= calls) {
        child.stdin.end();
        return;
      }
      sentAt = process.hrtime.bigint();
      send({ id: next, method: 'tools/call', params: { name: 'ralph_status', arguments: {} } });
      next += 1;
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const msg = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (msg.id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id: 'list', method: 'tools/list' });
        } else if (msg.id === 'list') {
          ready = Number(process.hrtime.bigint() - start) / 1e6;
          callNext();
        } else {
          perCall.push(Number(process.hrtime.bigint() - sentAt) / 1e6);
          callNext();
        }
      }
    });
    child.once('exit', (code) => (code === 0 ? resolve([ready, perCall]) : reject(new Error(`ralph mcp exited ${code}`))));
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
  });
}

try {
  tool('test_setup', { workspace_id: 'probe' });
  const single = Array.from({ length: RUNS }, () => tool('test_snapshot', { workspace_id: 'probe', include_patterns: ['.ralph/*.md'] }));
  const scenarios = Array.from({ length: Math.max(3, Math.floor(RUNS / 2)) }, (_, i) => scenario(`bench_${i}`));
  const readies = [];
  const calls = [];
  for (let i = 0; i < Math.max(3, Math.floor(RUNS / 2)); i += 1) {
    const [ready, perCall] = await mcpSession(20);
    readies.push(ready);
    calls.push(...perCall);
  }
  printTable(`Agent tools (${RUNS} runs, median)`, [
    row('ralph test test_snapshot (one call)', `${median(single).toFixed(1)} ms (p90 ${p90(single).toFixed(1)})`, '-', true),
    row('seed scenario via CLI (5 calls, 1 loop)', `${median(scenarios).toFixed(0)} ms (p90 ${p90(scenarios).toFixed(0)})`, '-', true),
    row('ralph mcp: spawn → tools listed', `${median(readies).toFixed(1)} ms (p90 ${p90(readies).toFixed(1)})`, '-', true),
    row('ralph mcp: one tool call (ralph_status)', `${median(calls).toFixed(2)} ms (p90 ${p90(calls).toFixed(2)})`, '-', true),
  ]);
} finally {
  cleanup(home);
}
