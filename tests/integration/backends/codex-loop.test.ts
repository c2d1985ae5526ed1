// The built `ralph --backend codex` driving the real Codex CLI 0.169.0 offline: one fake Responses
// API on 127.0.0.1 for the file, a throwaway CODEX_HOME per test (npm run build first).
import { chmodSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_TEST_MODEL, codexHome, type CodexHomeOptions } from '../../helpers/codex-home.js';
import { FAKE_API_KEY, shellCall, startFakeResponsesApi, type FakeResponsesApi, type ResponsesRequestBody } from '../../helpers/fake-api/openai-responses.js';
import { ralphProject } from '../../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, statusBlock } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { agentCli } from '../../helpers/agent-clis.js';

const CODEX_BIN = agentCli('codex');
const RALPHRC = `CODEX_CMD="${CODEX_BIN}"\nCODEX_MODEL=${CODEX_TEST_MODEL}\nCODEX_REASONING_EFFORT=low\n`;
const inProgress = (text: string): string => `${text}\n\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false', WORK_TYPE: 'IMPLEMENTATION' })}`;
const complete = (text: string): string => `${text}\n\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true', WORK_TYPE: 'IMPLEMENTATION' })}`;

let api: FakeResponsesApi;
beforeAll(async () => {
  api = await startFakeResponsesApi();
});
afterAll(async () => api.close());

function codexEnv(options: CodexHomeOptions = {}): Record<string, string> {
  const { PATH: _path, ...env } = codexHome(tempDir('codex-home-'), api.baseUrl, options);
  return cleanEnv(env);
}

/** The text of every message of a request, in order. */
function messages(body: ResponsesRequestBody): string[] {
  return (body.input ?? []).flatMap((item) => (item.content ?? []).map((c) => c.text ?? ''));
}

/** Every file Ralph wrote under .ralph, as one text. */
function ralphFiles(dir: string): string {
  const read = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? read(join(d, e.name)) : [readFileSync(join(d, e.name), 'utf8')]));
  return read(join(dir, '.ralph')).join('\n');
}

describe('ralph --backend codex against the real Codex CLI', () => {
  it('runs a three-iteration loop that writes files, resumes its thread and ends project_complete', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const first = api.requests.length;
    api.script([
      shellCall('echo one > one.txt && env > .ralph/command-env.txt'),
      { text: inProgress('Wrote one.txt.') },
      shellCall('echo two > two.txt'),
      { text: complete('Wrote two.txt; every task is done.') },
      { text: complete('Nothing left to do.') },
    ]);
    const r = await ralph(['--backend', 'codex', '--pause', '0'], dir, codexEnv());
    expect(r.stderr).toContain('Graceful exit triggered: project_complete');
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'one.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(dir, 'two.txt'), 'utf8')).toBe('two\n');
    const requests = api.requests.slice(first);
    expect(requests).toHaveLength(5);
    expect(requests.every((q) => q.body.model === CODEX_TEST_MODEL && q.body.reasoning?.effort === 'low')).toBe(true);
    // Unattended: approvals and Codex's sandbox are off unless the user chose a sandbox.
    for (const q of requests) expect(q.headers['x-codex-turn-metadata']).toContain('"sandbox_mode":"danger-full-access"');
    // Loop 1 gets the context as a developer message; loop 2 resumes the thread and carries it in the prompt.
    expect(messages(requests[0]!.body)).toContainEqual(expect.stringContaining('Loop #1'));
    const second = messages(requests[2]!.body);
    expect(second).toContain(
      'Wrote one.txt.\n\n---RALPH_STATUS---\nSTATUS: IN_PROGRESS\nEXIT_SIGNAL: false\nWORK_TYPE: IMPLEMENTATION\n---END_RALPH_STATUS---',
    );
    expect(second.at(-1)).toMatch(/^[\s\S]*Loop #2[\s\S]*Work through \.ralph\/fix_plan\.md/);
    const status = readJson(join(dir, '.ralph', 'status.json'));
    expect(status).toMatchObject({ exit_reason: 'project_complete', loop_count: 3, backend: 'codex' });
    // Each request: 1200 input tokens (200 cached), 80 output; each call counts only its own.
    expect(status['totals']).toMatchObject({ calls: 3, output_tokens: 400 });
    // Estimated at gpt-5.1-codex list prices: 5000 uncached input, 1000 cached, 400 output tokens.
    expect((status['totals'] as { cost_usd: number }).cost_usd).toBeCloseTo((5000 * 1.25 + 1000 * 0.125 + 400 * 10) / 1e6, 9);
    // Codex authenticated with the key, and the commands it ran never saw it.
    const commandEnv = readFileSync(join(dir, '.ralph', 'command-env.txt'), 'utf8');
    expect(commandEnv).toContain('CODEX_HOME=');
    expect(commandEnv).not.toContain('OPENAI_API_KEY');
    expect(ralphFiles(dir)).not.toContain(FAKE_API_KEY);
  });

  it('a verify gate that fails once: the failure reaches the next Codex call, then it passes', async () => {
    const dir = ralphProject({
      ralphrc: RALPHRC,
      files: {
        'attempt.txt': '0',
        'check.sh': 'n=$(cat attempt.txt)\necho $((n + 1)) > attempt.txt\nif [ "$n" -lt 2 ]; then echo "FAIL: expected 200, got 401" >&2; exit 1; fi\n',
      },
    });
    chmodSync(join(dir, 'check.sh'), 0o755);
    const first = api.requests.length;
    api.script([], { text: complete('Fixed the status code.') });
    const r = await ralph(['run', '>>fix-issue :: verify:"./check.sh" loop:true', '--backend', 'codex', '--pause', '0'], dir, codexEnv());
    expect(r.exitCode).toBe(0);
    const requests = api.requests.slice(first);
    expect(requests).toHaveLength(2);
    expect(messages(requests[0]!.body).join('\n')).not.toContain('Shell Verification FAILED');
    const retry = messages(requests[1]!.body).join('\n');
    expect(retry).toContain('## Shell Verification FAILED (Attempt 1/5)');
    expect(retry).toContain('expected 200, got 401');
  });

  it('a usage limit that resets after --max-runtime ends the run with usage_limit (exit 5)', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const resetsAt = Math.floor(Date.now() / 1000) + 7200;
    api.script([{ status: 429, error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', plan_type: 'plus', resets_at: resetsAt } }]);
    const r = await ralph(['--backend', 'codex', '--pause', '0', '--max-runtime', '60'], dir, codexEnv());
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('hit your usage limit');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'usage_limit', exit_code: 5 });
  });

  it("a write Codex's read-only sandbox refuses halts as a permission denial with Codex's own remedy (exit 4)", async () => {
    const dir = ralphProject({ ralphrc: `${RALPHRC}CODEX_EXTRA_ARGS="--sandbox read-only"\n` });
    // The short pause lets Codex report the command before its refusal (it may drop the event of an instant failure).
    api.script([shellCall('sleep 1; touch hello.txt'), { text: inProgress('The sandbox refused to create hello.txt.') }]);
    const r = await ralph(['--backend', 'codex', '--pause', '0'], dir, codexEnv());
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.stderr).toContain('Codex CLI was denied these tools or commands:');
    expect(r.stderr).toContain('Shell(sleep 1; touch hello.txt)');
    expect(r.stderr).toContain('CODEX_EXTRA_ARGS="--sandbox workspace-write"');
    expect(r.stderr).not.toContain('ALLOWED_TOOLS=');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'permission_denied' });
  });

  it('an HTTP 500 is a passing server error, retried with growing waits, never called a rate limit', async () => {
    const dir = ralphProject({ ralphrc: `${RALPHRC}API_RETRY_WAIT_SECONDS=0\n` });
    const first = api.requests.length;
    api.script([
      { status: 500, error: { type: 'server_error', message: 'The server had an error while processing your request.' } },
      { text: inProgress('Done after the outage.') },
    ]);
    const r = await ralph(['--backend', 'codex', '--pause', '0', '--max-loops', '2'], dir, codexEnv());
    expect(r.stderr).toMatch(/API server error, a passing fault on the provider's side, attempt 1\/3/);
    expect(r.stderr).not.toContain('Rate limit detected');
    // The retry is the loop's next call, which goes through.
    expect(api.requests.length - first).toBe(2);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'max_loops' });
  });

  it('an exhausted quota stops at the first call with what to do', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const first = api.requests.length;
    api.script([], { status: 429, error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota.' } });
    const r = await ralph(['--backend', 'codex', '--pause', '0'], dir, codexEnv());
    expect(r.exitCode).toBe(1);
    expect(api.requests.length - first).toBe(1);
    expect(r.stderr).toContain('Quota exceeded');
    expect(r.stderr).toContain('Billing');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'agent_failure', exit_code: 1 });
  });

  it('a wrong API key stops at once (one refused request), and the key is nowhere in what Ralph wrote', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const refused = api.unauthorized();
    const key = 'sk-proj-this-key-is-wrong-0000';
    const r = await ralph(['--backend', 'codex', '--pause', '0'], dir, codexEnv({ apiKey: key }));
    expect(r.exitCode).toBe(1);
    expect(api.unauthorized() - refused).toBe(1);
    expect(r.stderr).toContain('401 Unauthorized');
    expect(r.stderr).toContain('codex login');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'agent_failure', exit_code: 1 });
    expect(`${r.stdout}${r.stderr}${ralphFiles(dir)}`).not.toContain(key);
  });

  it('Codex’s own sandbox chosen in CODEX_EXTRA_ARGS replaces the bypass, on the resumed call too (model priced from its config.toml)', async () => {
    const dir = ralphProject({ ralphrc: `CODEX_CMD="${CODEX_BIN}"\nCODEX_EXTRA_ARGS="--sandbox workspace-write"\n` });
    const first = api.requests.length;
    api.script([{ text: inProgress('Looked at the plan.') }, { text: inProgress('Looked again.') }]);
    const r = await ralph(['--backend', 'codex', '--max-loops', '2', '--pause', '0'], dir, codexEnv());
    expect(r.exitCode).toBe(7);
    const requests = api.requests.slice(first);
    expect(requests).toHaveLength(2);
    expect(messages(requests[1]!.body)).toContainEqual(expect.stringContaining('Looked at the plan.'));
    for (const q of requests) expect(q.headers['x-codex-turn-metadata']).toContain('"sandbox_mode":"workspace-write"');
    // No CODEX_MODEL: the model of Codex's config.toml prices the tokens (2 calls of 1000 + 200 cached in, 80 out).
    const totals = readJson(join(dir, '.ralph', 'status.json'))['totals'] as { cost_usd: number };
    expect(totals.cost_usd).toBeCloseTo((2000 * 1.25 + 400 * 0.125 + 160 * 10) / 1e6, 9);
  });

  it('Codex’s workspace-write sandbox really contains its commands here: a write inside the project works, one outside is refused', async () => {
    // Codex lets a workspace-write command write to /tmp as well; the project lives there in tests, so those exceptions go.
    const extra = '--sandbox workspace-write -c sandbox_workspace_write.exclude_slash_tmp=true -c sandbox_workspace_write.exclude_tmpdir_env_var=true';
    const dir = ralphProject({ ralphrc: `${RALPHRC}CODEX_EXTRA_ARGS="${extra}"\n` });
    const outside = join(tempDir('outside-'), 'escaped.txt');
    api.script([
      shellCall(`echo in > inside.txt; echo out > ${outside}; echo $? > outside-exit.txt`),
      { text: complete('Tried both.') },
      { text: complete('Done.') },
    ]);
    const r = await ralph(['--backend', 'codex', '--max-loops', '2', '--pause', '0'], dir, codexEnv());
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'inside.txt'), 'utf8')).toBe('in\n');
    expect(existsSync(outside)).toBe(false);
    expect(readFileSync(join(dir, 'outside-exit.txt'), 'utf8')).toBe('1\n');
  });

  it('--live shows Codex’s retries, commands and answer as they happen', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    api.script([{ hang: true }, shellCall('echo hi > hello.txt'), { text: inProgress('Wrote hello.txt.') }]);
    const r = await ralph(['--backend', 'codex', '--live', '--max-loops', '1', '--pause', '0'], dir, codexEnv({ streamRetries: 1, streamIdleMs: 500 }));
    expect(r.exitCode).toBe(7);
    const shown = `${r.stdout}${r.stderr}`;
    expect(shown).toContain('API retry 1/1');
    expect(shown).toContain('⚡ [Shell]');
    expect(shown).toContain('Wrote hello.txt.');
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hi\n');
  });

  it('a missing Codex CLI is one clear message and exit 2', async () => {
    const dir = ralphProject({ ralphrc: 'CODEX_CMD=/nonexistent/codex\n' });
    const r = await ralph(['--backend', 'codex'], dir, codexEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Codex CLI not found: '/nonexistent/codex' could not be started.");
    expect(r.stderr).toContain('npm install -g @openai/codex');
    // The same shape as every agent's: the login step, the .ralphrc line, the way to try Ralph without it.
    expect(r.stderr).toContain('`codex login`');
    expect(r.stderr).toContain('point CODEX_CMD in .ralphrc at it');
    expect(r.stderr).toContain('--backend mock');
    expect(existsSync(join(dir, '.ralph', 'status.json'))).toBe(false);
  });
});
