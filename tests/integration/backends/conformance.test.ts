// One contract, every registered backend: each scenario is produced the backend's own way (Claude
// Code and Gemini CLI: their recorded real outputs replayed by the fake `claude`; Codex and
// OpenCode: the real CLI against a fake model API on 127.0.0.1; the mock: its script) and must
// come back as the same neutral result. A new backend adds a folder, a registry entry and a driver
// here. Resuming after a switch of backend is played by backend-switch.test.ts, every real CLI in turn.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { AgentProgress, AgentResult } from '../../../src/agent-result.js';
import { NO_REDACTION } from '../../../src/core/secret-redactor.js';
import { BACKEND_NAMES, backendEntry, type BackendContext, type BackendName } from '../../../src/backends/registry.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { systemClock } from '../../../src/infra/system-clock.js';
import { transientCause } from '../../../src/core/transient-api-error.js';
import type { AgentBackend } from '../../../src/ports.js';
import { ralphPaths } from '../../../src/state/paths.js';
import { createMemoryLogger } from '../../../src/ui/logger.js';
import { CODEX_TEST_MODEL, codexHome, type CodexHomeOptions } from '../../helpers/codex-home.js';
import { shellCall, startFakeResponsesApi, type FakeResponsesApi, type ResponsesReply } from '../../helpers/fake-api/openai-responses.js';
import { startFakeChatApi, type ChatTurn } from '../../helpers/fake-api/opencode-chat-completions.js';
import { FAKE_MODEL, opencodeOfflineEnv } from '../../helpers/fake-api/opencode-offline-env.js';
import { FAKE_BIN, fakeClaude, type FakeCall } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { agentCli } from '../../helpers/agent-clis.js';

type Scenario =
  | 'completed'
  | 'usage_limit'
  | 'usage_limit_no_reset'
  | 'api_transient'
  | 'server_error'
  | 'unrecoverable'
  | 'billing'
  | 'timeout'
  | 'interrupted'
  | 'failed'
  | 'fatal'
  | 'permission_denied'
  | 'streamed';

/** Makes a backend whose next call plays `scenario` in project `dir`. */
type Driver = (scenario: Scenario, dir: string) => Promise<AgentBackend>;

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'claude-cli');
const fixtureText = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
/** The usage-limit fixtures were recorded two hours before their reset ("resets 2:39pm (UTC)"). */
const NOW = Date.parse('2026-11-22T12:39:00Z');
const clock = { ...systemClock, now: () => NOW };
const ANSWER = 'Created hello.txt and checked git status.';

function context(dir: string, backend: BackendName, env: NodeJS.ProcessEnv = {}): BackendContext {
  const config = loadConfig({ env: {}, flags: { backend, mockScript: '.ralph/mock.json' } }).config;
  return { config, paths: ralphPaths(dir), runner: createProcessRunner(), clock, logger: createMemoryLogger(), env, outputRedactor: () => NO_REDACTION };
}

const CLAUDE_CALLS: Record<Scenario, FakeCall> = {
  completed: { fixture: 'json-success-tool-use.json' },
  usage_limit: { fixture: 'json-error-usage-limit.json', exit: 1 },
  usage_limit_no_reset: { fixture: 'v2.1.330/json-error-usage-limit-no-reset.json', exit: 1 },
  api_transient: { fixture: 'json-error-rate-limit.json', exit: 1 },
  server_error: { fixture: 'json-error-server-500.json', exit: 1 },
  unrecoverable: { fixture: 'json-error-auth.json', exit: 1 },
  billing: { fixture: 'json-error-credit-balance.json', exit: 1 },
  timeout: { fixture: 'json-success-tool-use.json', sleep_ms: 20_000 },
  interrupted: { fixture: 'json-success-tool-use.json', sleep_ms: 20_000 },
  failed: { stdout: '', stderr: 'fatal: model unavailable\n', exit: 3 },
  fatal: {},
  permission_denied: { fixture: 'json-permission-denied.json' },
  streamed: { fixture: 'stream-json-success.jsonl' },
};

/**
 * OpenCode's turns for each scenario. OpenCode retries a 429 itself; `retry-after-ms` keeps those
 * retries short, and every retry meets the same answer (the fallback turn).
 */
const QUICK_RETRY = { 'retry-after-ms': '1' };
const OPENCODE_TURNS: Record<Scenario, { turns: ChatTurn[]; fallback?: ChatTurn }> = {
  completed: { turns: [{ tool: 'write', args: { filePath: 'hello.txt', content: 'hello\n' } }, { text: ANSWER }] },
  usage_limit: {
    turns: [],
    fallback: {
      status: 429,
      error: { message: 'The usage limit has been reached', type: 'usage_limit_reached', resets_at: Date.parse('2026-11-22T14:39:00Z') / 1000 },
      headers: QUICK_RETRY,
    },
  },
  usage_limit_no_reset: {
    turns: [],
    fallback: { status: 429, error: { message: 'The usage limit has been reached', type: 'usage_limit_reached' }, headers: QUICK_RETRY },
  },
  api_transient: {
    turns: [],
    fallback: { status: 429, error: { message: 'Rate limit reached for requests', type: 'requests' }, headers: QUICK_RETRY },
  },
  server_error: {
    turns: [],
    fallback: { status: 500, error: { message: 'The server had an error while processing your request.', type: 'server_error' }, headers: QUICK_RETRY },
  },
  unrecoverable: { turns: [{ status: 401, error: { message: 'Invalid API key', type: 'invalid_request_error', code: 'invalid_api_key' } }] },
  // OpenAI's answer to an account with no credit: billing, not a limit that resets.
  billing: {
    turns: [],
    fallback: {
      status: 429,
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
      headers: { ...QUICK_RETRY, 'x-ratelimit-reset-tokens': '2h0m0s' },
    },
  },
  timeout: { turns: [{ hang: true }] },
  interrupted: { turns: [{ hang: true }] },
  failed: { turns: [{ status: 400, error: { message: 'fatal: model unavailable', type: 'invalid_request_error' } }] },
  fatal: { turns: [] },
  permission_denied: { turns: [{ tool: 'bash', args: { command: 'npm test', description: 'Run the tests' } }, { text: ANSWER }] },
  streamed: {
    turns: [
      { tool: 'write', args: { filePath: 'hello.txt', content: 'hello\n' } },
      { tool: 'bash', args: { command: 'git status --short', description: 'Show the changes' } },
      { text: ANSWER },
    ],
  },
};

const GEMINI_FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'gemini-cli');
const geminiStderr = (name: string): string => readFileSync(join(GEMINI_FIXTURES, name), 'utf8');
/** Gemini CLI 0.61's recorded stream-json, replayed by the same fake command (tests/fixtures/gemini-cli). */
const GEMINI_CALLS: Record<Scenario, FakeCall> = {
  completed: { fixture: 'stream-json-success-tool-use.jsonl' },
  usage_limit: { fixture: 'stream-json-error-daily-quota.jsonl', stderr: geminiStderr('stream-json-error-daily-quota.stderr.txt'), exit: 173 },
  usage_limit_no_reset: {
    fixture: 'stream-json-error-capacity-exhausted.jsonl',
    stderr: geminiStderr('stream-json-error-capacity-exhausted.stderr.txt'),
    exit: 173,
  },
  api_transient: { fixture: 'stream-json-error-rate-limit.jsonl', stderr: geminiStderr('stream-json-error-rate-limit.stderr.txt'), exit: 173 },
  server_error: { fixture: 'stream-json-error-server-500.jsonl', stderr: geminiStderr('stream-json-error-server-500.stderr.txt'), exit: 244 },
  unrecoverable: { fixture: 'stream-json-error-bad-api-key.jsonl', stderr: geminiStderr('stream-json-error-bad-api-key.stderr.txt'), exit: 144 },
  billing: { fixture: 'stream-json-error-billing-disabled.jsonl', stderr: geminiStderr('stream-json-error-billing-disabled.stderr.txt'), exit: 147 },
  timeout: { fixture: 'stream-json-success-tool-use.jsonl', sleep_ms: 20_000 },
  interrupted: { fixture: 'stream-json-success-tool-use.jsonl', sleep_ms: 20_000 },
  failed: { stdout: '', stderr: 'fatal: model unavailable\n', exit: 3 },
  fatal: {},
  permission_denied: { fixture: 'stream-json-policy-denied.jsonl' },
  streamed: { fixture: 'stream-json-success-tool-use.jsonl' },
};

/** The mock plays the same scenarios from its script; a limit or an API error is scripted as the CLI printed it. */
const MOCK_RESPONSES: Record<Scenario, Array<Record<string, unknown>>> = {
  completed: [{ output: ANSWER, cost_usd: 0.03, input_tokens: 120, output_tokens: 40, session_id: 'mock-1' }],
  usage_limit: [{ output: fixtureText('json-error-usage-limit.json'), raw: true, exit_code: 1 }],
  usage_limit_no_reset: [{ output: fixtureText('v2.1.330/json-error-usage-limit-no-reset.json'), raw: true, exit_code: 1 }],
  api_transient: [{ output: fixtureText('json-error-rate-limit.json'), raw: true, exit_code: 1 }],
  server_error: [{ output: fixtureText('json-error-server-500.json'), raw: true, exit_code: 1 }],
  unrecoverable: [{ output: fixtureText('json-error-auth.json'), raw: true, exit_code: 1 }],
  billing: [{ output: fixtureText('json-error-credit-balance.json'), raw: true, exit_code: 1 }],
  timeout: [{ output: ANSWER, delay_ms: 60_000 }],
  interrupted: [{ output: ANSWER, delay_ms: 60_000 }],
  failed: [{ output: 'fatal: model unavailable', exit_code: 3 }],
  fatal: [],
  permission_denied: [{ output: fixtureText('json-permission-denied.json') }],
  streamed: [{ output: fixtureText('stream-json-success.jsonl') }],
};

/** The real Codex CLI against the fake Responses API: what the model answers, and how Codex is set up. */
const CODEX_BIN = agentCli('codex');
const CODEX_ANSWER = `${ANSWER}\n\n---RALPH_STATUS---\nSTATUS: COMPLETE\nEXIT_SIGNAL: true\n---END_RALPH_STATUS---`;
const CODEX_CALLS: Record<Scenario, { replies: ResponsesReply[]; home?: CodexHomeOptions; extraArgs?: string[] }> = {
  completed: { replies: [shellCall('echo hi > hello.txt && git status --short'), { text: CODEX_ANSWER }] },
  usage_limit: {
    replies: [
      {
        status: 429,
        error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', resets_at: Date.parse('2026-11-22T14:39:00Z') / 1000 },
      },
    ],
  },
  usage_limit_no_reset: { replies: [{ status: 429, error: { type: 'usage_limit_reached', message: 'The usage limit has been reached' } }] },
  api_transient: { replies: [{ status: 429, error: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached.' } }] },
  server_error: { replies: [{ status: 500, error: { type: 'server_error', message: 'The server had an error while processing your request.' } }] },
  unrecoverable: { replies: [], home: { apiKey: 'sk-proj-not-the-right-key-0000' } },
  billing: {
    replies: [
      {
        status: 429,
        error: {
          type: 'insufficient_quota',
          code: 'insufficient_quota',
          message: 'You exceeded your current quota, please check your plan and billing details.',
        },
      },
    ],
  },
  timeout: { replies: [{ hang: true }] },
  interrupted: { replies: [{ hang: true }] },
  failed: { replies: [{ status: 400, error: { type: 'invalid_request_error', message: 'fatal: model unavailable' } }] },
  fatal: { replies: [] },
  permission_denied: {
    replies: [
      { call: 'exec_command', arguments: { cmd: 'npm test', sandbox_permissions: 'require_escalated', justification: 'run the tests' } },
      { text: ANSWER },
    ],
    extraArgs: ['-c', 'sandbox_mode="workspace-write"'],
  },
  streamed: { replies: [shellCall('echo hi > hello.txt'), shellCall('git status --short'), { text: CODEX_ANSWER }] },
};
let codexApi: FakeResponsesApi | undefined;
beforeAll(async () => {
  codexApi = await startFakeResponsesApi();
});
afterAll(async () => codexApi?.close());

/** Where the agents differ in what they can say: the figures of each scenario, per backend. */
const EXPECTED = {
  claude: { cost: 'reported', failedExit: 3, denial: { tool: 'Bash', detail: 'npm test' }, streamedTools: ['Write', 'Bash'], turns: 3 },
  mock: { cost: 'reported', failedExit: 3, denial: { tool: 'Bash', detail: 'npm test' }, streamedTools: ['Write', 'Bash'], turns: 3 },
  opencode: { cost: 'reported', failedExit: 1, denial: { tool: 'Bash', detail: 'npm test' }, streamedTools: ['Write', 'Bash'], turns: 3 },
  codex: {
    cost: 'estimated',
    failedExit: 1,
    denial: { tool: 'Shell', detail: 'a command that asked to run outside the sandbox' },
    streamedTools: ['Shell', 'Shell'],
    turns: undefined,
  },
  gemini: {
    cost: 'estimated',
    failedExit: 3,
    denial: { tool: 'Bash', detail: 'npm test' },
    streamedTools: ['Write', 'Bash'],
    turns: undefined,
    // The recorded daily quota said "Please retry in 13h5m2.5s"; a bad key is "API key not valid".
    resetAt: NOW + (13 * 3600 + 5 * 60 + 2.5) * 1000,
    authMessage: /API key not valid/,
  },
} satisfies Record<
  BackendName,
  { cost: string; failedExit: number; denial: object; streamedTools: string[]; turns: number | undefined; resetAt?: number; authMessage?: RegExp }
>;
const expectedOf = (name: BackendName): { resetAt: number; authMessage: RegExp } => {
  const e = EXPECTED[name];
  return {
    resetAt: 'resetAt' in e ? e.resetAt : Date.parse('2026-11-22T14:39:00Z'),
    authMessage: 'authMessage' in e ? e.authMessage : /(?:Invalid|Incorrect) API key/,
  };
};

const DRIVERS = {
  claude: async (scenario, dir) => {
    const fake = fakeClaude([CLAUDE_CALLS[scenario]]);
    const ctx = context(dir, 'claude', fake.env);
    if (scenario === 'fatal') ctx.config = { ...ctx.config, claudeCommand: ['/nonexistent/claude'] };
    return backendEntry('claude').create(ctx);
  },
  codex: async (scenario, dir) => {
    const call = CODEX_CALLS[scenario];
    const api = codexApi as FakeResponsesApi;
    api.script(call.replies);
    const ctx = context(dir, 'codex', codexHome(dir, api.baseUrl, { streamIdleMs: 60_000, ...call.home }));
    const command = scenario === 'fatal' ? ['/nonexistent/codex'] : [CODEX_BIN];
    ctx.config = { ...ctx.config, codexCommand: command, codexModel: CODEX_TEST_MODEL, codexExtraArgs: call.extraArgs ?? [] };
    return backendEntry('codex').create(ctx);
  },
  opencode: async (scenario, dir) => {
    const { turns, fallback } = OPENCODE_TURNS[scenario];
    const api = await startFakeChatApi(turns, fallback);
    onTestFinished(() => api.close());
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...opencodeOfflineEnv(join(dir, '.home'), api.baseURL) };
    const ctx = context(dir, 'opencode', env);
    const command = scenario === 'fatal' ? ['/nonexistent/opencode'] : [agentCli('opencode')];
    // Only the commands Ralph allows run: `npm test` is refused in the permission scenario.
    ctx.config = { ...ctx.config, opencodeCommand: command, opencodeModel: FAKE_MODEL, allowedTools: ['Write', 'Read', 'Edit', 'Bash(git status *)'] };
    return backendEntry('opencode').create(ctx);
  },
  gemini: async (scenario, dir) => {
    const fake = fakeClaude([GEMINI_CALLS[scenario]], { env: { FAKE_CLAUDE_FIXTURES: GEMINI_FIXTURES } });
    const ctx = context(dir, 'gemini', fake.env);
    ctx.config = { ...ctx.config, geminiCommand: [scenario === 'fatal' ? '/nonexistent/gemini' : join(FAKE_BIN, 'claude')] };
    return backendEntry('gemini').create(ctx);
  },
  mock: async (scenario, dir) => {
    mkdirSync(join(dir, '.ralph'), { recursive: true });
    writeFileSync(join(dir, '.ralph', 'mock.json'), JSON.stringify({ responses: MOCK_RESPONSES[scenario] }));
    return backendEntry('mock').create(context(dir, 'mock'));
  },
} satisfies Record<BackendName, Driver>;

async function play(
  name: BackendName,
  scenario: Scenario,
  options: { live?: boolean; abortAfterMs?: number } = {},
): Promise<{ result: AgentResult; progress: AgentProgress[] }> {
  const dir = tempDir(`conformance-${name}-`);
  const backend = await DRIVERS[name](scenario, dir);
  const progress: AgentProgress[] = [];
  const stop = new AbortController();
  const timer = options.abortAfterMs === undefined ? undefined : setTimeout(() => stop.abort(), options.abortAfterMs);
  const timeoutMs = scenario === 'timeout' ? 300 : 120_000;
  const request = {
    loop: 1,
    cwd: dir,
    prompt: 'Create hello.txt',
    loopContext: 'Loop #1.',
    timeoutMs,
    outputLogPath: join(dir, 'out.log'),
    live: options.live ?? false,
    onProgress: (e: AgentProgress) => progress.push(e),
  };
  try {
    return { result: await backend.run(request, stop.signal), progress };
  } finally {
    clearTimeout(timer);
  }
}

// The real OpenCode takes seconds to start on a busy machine.
describe.each(BACKEND_NAMES)('backend %s', { timeout: 300_000 }, (name) => {
  it('is what the registry says it is', async () => {
    const backend = await DRIVERS[name]('completed', tempDir('conformance-'));
    expect(backend.name).toBe(name);
    expect(backend.displayName).toBe(backendEntry(name).displayName);
  });

  it('completed: the final text, usage, cost, session id and a finished event', async () => {
    const { result, progress } = await play(name, 'completed');
    expect(result.outcome).toEqual({ kind: 'success' });
    expect(result.end).toBe('exited');
    expect(result.exitCode).toBe(0);
    expect(result.structured).toBe(true);
    expect(result.complete).toBe(true);
    expect(result.text.head).toContain('Created hello.txt');
    expect(result.usage?.inputTokens).toBeGreaterThan(0);
    expect(result.usage?.outputTokens).toBeGreaterThan(0);
    expect(result.cost).toEqual({ usd: expect.any(Number), source: EXPECTED[name].cost });
    expect(result.cost?.usd).toBeGreaterThan(0);
    expect(result.sessionId).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(result.permissionDenials).toEqual([]);
    expect(progress.at(-1)).toMatchObject({ kind: 'finished', isError: false });
  });

  it('usage_limit: with the reset time the agent gave', async () => {
    const { result } = await play(name, 'usage_limit');
    expect(result.outcome).toMatchObject({ kind: 'usage_limit', resetAt: expectedOf(name).resetAt });
  });

  it('usage_limit without a reset: still a limit to wait for (the configured wait), never a failure', async () => {
    const { result } = await play(name, 'usage_limit_no_reset');
    expect(result.outcome.kind).toBe('usage_limit');
    expect(result.outcome).not.toHaveProperty('resetAt');
  });

  it('billing: no credit or quota left stops with advice, never a limit to wait for', async () => {
    const { result } = await play(name, 'billing');
    expect(result.outcome).toMatchObject({ kind: 'unrecoverable', message: expect.any(String), advice: expect.stringMatching(/credit|billing|quota/i) });
  });

  it('server_error: a 5xx is a passing server error worth a retry, not a rate limit', async () => {
    const { result } = await play(name, 'server_error');
    expect(result.outcome.kind).toBe('api_transient');
    if (result.outcome.kind === 'api_transient') expect(transientCause(result.outcome.status, result.outcome.message)).toBe('server_error');
  });

  it('api_transient: a rate-limited API is worth a retry', async () => {
    const { result } = await play(name, 'api_transient');
    expect(result.outcome).toMatchObject({ kind: 'api_transient', status: 429 });
  });

  it('unrecoverable: bad credentials stop with advice', async () => {
    const { result } = await play(name, 'unrecoverable');
    expect(result.outcome).toMatchObject({
      kind: 'unrecoverable',
      message: expect.stringMatching(expectedOf(name).authMessage),
      advice: expect.any(String),
    });
  });

  it('timeout: a call past its time limit', async () => {
    const { result } = await play(name, 'timeout');
    expect(result.outcome).toEqual({ kind: 'timeout' });
    expect(result.end).toBe('timeout');
  });

  it('interrupted: an aborted call', async () => {
    const { result } = await play(name, 'interrupted', { abortAfterMs: 200 });
    expect(result.outcome).toEqual({ kind: 'interrupted' });
    expect(result.end).toBe('interrupted');
  });

  it('failed: a non-zero exit with what the agent said', async () => {
    const { result } = await play(name, 'failed');
    const exit = EXPECTED[name].failedExit;
    expect(result.outcome).toMatchObject({
      kind: 'failed',
      message: expect.stringContaining(`fatal: model unavailable (exit code ${exit})`),
      resetSession: false,
    });
    expect(result.exitCode).toBe(exit);
  });

  it('fatal: an agent that cannot run at all', async () => {
    const { result } = await play(name, 'fatal');
    expect(result.outcome.kind).toBe('fatal');
    expect(result.end).toBe('spawn_failed');
  });

  it('permission denials, in neutral form', async () => {
    const { result } = await play(name, 'permission_denied');
    expect(result.outcome).toEqual({ kind: 'success' });
    expect(result.permissionDenials).toEqual([EXPECTED[name].denial]);
  });

  it('progress while it runs: session, tool uses, messages, the end of the turn', async () => {
    const { result, progress } = await play(name, 'streamed', { live: true });
    expect(result.outcome).toEqual({ kind: 'success' });
    expect(result.toolUses).toBe(2);
    expect(progress[0]).toEqual({ kind: 'session_started', sessionId: result.sessionId });
    expect(progress.filter((e) => e.kind === 'tool_use').map((e) => (e.kind === 'tool_use' ? e.tool : ''))).toEqual(EXPECTED[name].streamedTools);
    // A whole message, or its deltas: the text the live view shows.
    const shown = progress.map((e) => (e.kind === 'message' ? `${e.text}\n` : e.kind === 'text_delta' ? e.text : e.kind === 'text_end' ? '\n' : '')).join('');
    expect(shown).toContain('Created hello.txt');
    const turns = EXPECTED[name].turns;
    expect(progress.at(-1)).toMatchObject({ kind: 'finished', isError: false, ...(turns === undefined ? {} : { turns }) });
  });
});
