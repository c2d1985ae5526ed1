import { NO_REDACTION } from '../../../src/core/secret-redactor.js';
// Ralph's loop on the real OpenCode CLI, fully offline: a fake model API on 127.0.0.1 scripts
// each model call, OpenCode really writes the files and runs the commands, throwaway HOME.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { opencodeBackend } from '../../../src/backends/opencode/opencode-backend.js';
import { createMemoryLogger } from '../../../src/ui/logger.js';
import { startFakeChatApi, type ChatTurn, type FakeChatApi } from '../../helpers/fake-api/opencode-chat-completions.js';
import { FAKE_MODEL, FAKE_OPENCODE_KEY, opencodeOfflineEnv } from '../../helpers/fake-api/opencode-offline-env.js';
import { isRunning, killTracked, pidFromFile, survivors, track } from '../../helpers/processes.js';
import { ralphProject } from '../../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, runCli, statusBlock } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { agentCli } from '../../helpers/agent-clis.js';

const OPENCODE = agentCli('opencode');
const RALPHRC = `OPENCODE_CMD="${OPENCODE}"\nOPENCODE_MODEL=${FAKE_MODEL}\nALLOWED_TOOLS="Write,Read,Edit,Bash(echo *),Bash(git status *)"\n`;

afterEach(() => killTracked());

async function fakeApi(turns: ChatTurn[], fallback?: ChatTurn): Promise<FakeChatApi> {
  const api = await startFakeChatApi(turns, fallback);
  onTestFinished(() => api.close());
  return api;
}

/** OpenCode's throwaway HOME: a temp dir of the test's own, removed when the test ends. */
function env(api: FakeChatApi): Record<string, string> {
  return cleanEnv(opencodeOfflineEnv(tempDir('ralph-opencode-home-'), api.baseURL));
}

/** Every file Ralph wrote under .ralph, as text. */
function ralphFiles(dir: string): string {
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  return walk(join(dir, '.ralph'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

describe('ralph --backend opencode', { timeout: 300_000 }, () => {
  it('loops until the work is complete: real files, real commands, the session carried on', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const api = await fakeApi([
      { tool: 'write', args: { filePath: 'notes.txt', content: 'first task done\n' } },
      { text: `Wrote notes.txt.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false', TASKS_COMPLETED_THIS_LOOP: '1' })}` },
      { tool: 'bash', args: { command: 'echo shipped > done.txt', description: 'Mark the work done' } },
      { tool: 'write', args: { filePath: '.ralph/fix_plan.md', content: '# Fix Plan\n\n## High Priority\n- [x] first task\n- [x] second task\n' } },
      { text: `All tasks are done.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true', TASKS_COMPLETED_THIS_LOOP: '1' })}` },
    ]);
    // OpenCode unpacks a 5 MB native library into the temporary directory at every call: none of it may stay.
    const tmp = tempDir('ralph-opencode-tmpdir-');
    const r = await ralph(['--backend', 'opencode', '--pause', '0'], dir, { ...env(api), TMPDIR: tmp }, 280_000);
    expect(r.exitCode, r.stderr).toBe(0);
    // (The start-up check's `opencode --version` leaves only an empty folder of OpenCode's own.)
    expect(readdirSync(tmp, { recursive: true })).toEqual(readdirSync(tmp).filter((name) => name === 'opencode'));
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('first task done\n');
    expect(readFileSync(join(dir, 'done.txt'), 'utf8')).toBe('shipped\n');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'plan_complete', loop_count: 2 });
    expect(api.served()).toBe(5);
    // The loop context and PROMPT.md reach the model; the second loop goes on in the first one's session.
    expect(api.requests[0]?.userText).toContain('Work through .ralph/fix_plan.md');
    const history = JSON.stringify(api.requests[2]?.body['messages']);
    expect(history).toContain('Wrote notes.txt.');
    expect(api.requests.every((q) => q.authorization === `Bearer ${FAKE_OPENCODE_KEY}`)).toBe(true);
    expect(`${r.stdout}${r.stderr}${ralphFiles(dir)}`).not.toContain(FAKE_OPENCODE_KEY);
  });

  it("retries the task until its verify command passes, the failure's output reaching OpenCode", async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const api = await fakeApi([
      { tool: 'write', args: { filePath: 'notes.txt', content: 'started\n' } },
      { text: `Started.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}` },
      { tool: 'bash', args: { command: 'echo shipped > done.txt', description: 'Finish' } },
      { text: `Finished.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}` },
    ]);
    const task = '>>ship :: verify:"test -f done.txt || (echo done.txt is missing >&2; exit 1)" loop:true';
    const r = await ralph(['run', task, '--backend', 'opencode', '--pause', '0'], dir, env(api), 280_000);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Verify passed');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'project_complete', loop_count: 2 });
    expect(api.requests[0]?.userText).not.toContain('Shell Verification FAILED');
    expect(api.requests[2]?.userText).toContain('Shell Verification FAILED');
    expect(api.requests[2]?.userText).toContain('done.txt is missing');
  });

  it('stops at the first call when the provider refuses the key, with what to do', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const api = await fakeApi([], { status: 401, error: { message: 'Invalid API key', type: 'invalid_request_error', code: 'invalid_api_key' } });
    const r = await ralph(['--backend', 'opencode', '--pause', '0'], dir, env(api), 200_000);
    expect(r.exitCode).toBe(1);
    expect(api.served()).toBe(1);
    expect(r.stderr).toContain('Invalid API key');
    expect(r.stderr).toContain('opencode auth login');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'agent_failure', exit_code: 1 });
  });

  it("OpenAI's insufficient_quota is billing: it stops at the first call with advice (agent_failure, exit 1), never waits", async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const quota: ChatTurn = {
      status: 429,
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
      headers: { 'retry-after': '1', 'x-ratelimit-reset-requests': '13h' },
    };
    const api = await fakeApi([], quota);
    const r = await ralph(['--backend', 'opencode', '--pause', '0'], dir, env(api), 200_000);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('OpenCode cannot continue: You exceeded your current quota');
    expect(r.stderr).toContain('no credit or quota left');
    expect(r.stderr).not.toMatch(/usage limit|Waiting/i);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'agent_failure', loop_count: 1 });
    expect(`${r.stdout}${r.stderr}${ralphFiles(dir)}`).not.toContain(FAKE_OPENCODE_KEY);
  });

  it('a usage limit that outlasts OpenCode’s own retries waits for the reset it carries (exit 5 past --max-runtime)', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    // OpenCode waits what retry-after says (1 s) between its own five retries; the reset header
    // says when the limit really lifts.
    const limit: ChatTurn = {
      status: 429,
      error: { message: 'The usage limit has been reached', type: 'usage_limit_reached' },
      headers: { 'retry-after': '1', 'x-ratelimit-reset-requests': '13h' },
    };
    const api = await fakeApi([], limit);
    const r = await ralph(['--backend', 'opencode', '--pause', '0', '--max-runtime', '60'], dir, env(api), 200_000);
    expect(r.exitCode, r.stderr).toBe(5);
    // The reset 13 hours away is past --max-runtime: Ralph ends now instead of waiting.
    expect(r.stderr).toMatch(/the limit resets at [^\n]+, after --max-runtime ends/);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'usage_limit', loop_count: 1 });
    // One Ralph call: OpenCode's first try and its five retries.
    expect(api.served()).toBe(6);
  });

  it('Ctrl+C ends the loop with 130 and leaves nothing of OpenCode running', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC.replace('Bash(echo *)', 'Bash') });
    const pids = join(dir, 'pids.txt');
    const api = await fakeApi([{ tool: 'bash', args: { command: `echo $PPID > "${pids}.parent"; echo $$ > "${pids}"; exec sleep 300`, description: 'Wait' } }]);
    const run = runCli('ralph', ['--backend', 'opencode', '--pause', '0'], dir, env(api), 200_000);
    const sleeper = track(await pidFromFile(pids, 150_000));
    const parent = track(await pidFromFile(`${pids}.parent`));
    run.kill('SIGINT');
    const r = await run;
    expect(r.exitCode).toBe(130);
    expect(await survivors([sleeper, parent])).toEqual([]);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'interrupted' });
  });

  it('an interrupted call ends OpenCode and the command its tool was running', async () => {
    const dir = tempDir('opencode-stop-');
    const pidFile = join(dir, 'sleeper.pid');
    const api = await fakeApi([{ tool: 'bash', args: { command: `echo $$ > ${pidFile}; exec sleep 300`, description: 'Wait' } }]);
    const backend = opencodeBackend({
      outputRedactor: () => NO_REDACTION,
      settings: { command: [OPENCODE], model: FAKE_MODEL, effort: '', extraArgs: [] },
      allowedTools: [],
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...opencodeOfflineEnv(join(dir, '.home'), api.baseURL) },
      logger: createMemoryLogger(),
      killGraceMs: 1000,
    });
    const stop = new AbortController();
    const pids: number[] = [];
    const run = backend.run(
      { loop: 1, cwd: dir, prompt: 'Wait.', loopContext: '', timeoutMs: 240_000, outputLogPath: join(dir, 'out.log'), live: true },
      stop.signal,
    );
    const sleeper = await pidFromFile(pidFile, 200_000);
    pids.push(sleeper);
    const agent = readFileSync(`/proc/${sleeper}/stat`, 'utf8').split(' ')[4];
    if (agent) pids.push(track(Number(agent)));
    stop.abort();
    const result = await run;
    expect(result.outcome).toEqual({ kind: 'interrupted' });
    expect(result.end).toBe('interrupted');
    expect(await survivors(pids)).toEqual([]);
    expect(isRunning(sleeper)).toBe(false);
    expect(existsSync(join(dir, 'out.log'))).toBe(true);
  });
});

describe('the OpenCode check before the loop', () => {
  it('a missing CLI is the one message every agent gives: install, log in, the .ralphrc line, --backend mock (exit 2)', async () => {
    const r = await ralph(['--backend', 'opencode'], ralphProject({ ralphrc: 'OPENCODE_CMD=/nonexistent/opencode\n' }), cleanEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("OpenCode not found: '/nonexistent/opencode' could not be started.");
    expect(r.stderr).toContain('npm install -g opencode-ai');
    expect(r.stderr).toContain('`opencode auth login`');
    expect(r.stderr).toContain('point OPENCODE_CMD in .ralphrc at it (for example OPENCODE_CMD="npx opencode-ai")');
    expect(r.stderr).toContain('--backend mock');
  });
});
