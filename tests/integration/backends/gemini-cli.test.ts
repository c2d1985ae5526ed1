import { NO_REDACTION } from '../../../src/core/secret-redactor.js';
// `ralph --backend gemini` driving the real Gemini CLI (the pinned dev dependency), offline: the
// CLI talks to the fake Gemini API on 127.0.0.1 from a throwaway HOME. Gemini CLI takes seconds
// to start, so these few tests each cover as much as they can.
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { geminiBackend } from '../../../src/backends/gemini/gemini-backend.js';
import { DEFAULT_ALLOWED_TOOLS } from '../../../src/config/keys.js';
import { nextMidnight } from '../../../src/core/reset-time.js';
import { createMemoryLogger } from '../../../src/ui/logger.js';
import { FAKE_GEMINI_KEY, GEMINI_ERRORS, geminiHome, startFakeGeminiApi, type FakeGeminiApi, type GeminiTurn } from '../../helpers/fake-api/gemini.js';
import { isRunning, killTracked, pidFromFile, survivors, track } from '../../helpers/processes.js';
import { ralphProject } from '../../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, runCli, statusBlock } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { agentCli } from '../../helpers/agent-clis.js';

const GEMINI = agentCli('gemini');
const RALPHRC = `GEMINI_CMD="${GEMINI}"\nGEMINI_MODEL=gemini-2.5-flash\n`;
const done = (text: string): GeminiTurn => ({ text: `${text}\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}` });
const working = (text: string): GeminiTurn => ({ text: `${text}\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}` });
const write = (path: string, content: string): GeminiTurn => ({ calls: [{ name: 'write_file', args: { file_path: path, content } }] });
const shell = (command: string): GeminiTurn => ({ calls: [{ name: 'run_shell_command', args: { command, description: 'scripted' } }] });

let api: FakeGeminiApi | undefined;
afterEach(async () => {
  killTracked();
  await api?.close();
  api = undefined;
});

async function geminiEnv(turns: GeminiTurn[]): Promise<Record<string, string>> {
  api = await startFakeGeminiApi(turns);
  return cleanEnv(geminiHome(tempDir('gemini-home-'), api));
}

/** The prompt Ralph sent in a recorded request: the last text of its last user message (Gemini puts its session context first). */
function lastUserText(body: Record<string, unknown>): string {
  const contents = body['contents'] as Array<{ role: string; parts: Array<{ text?: string }> }>;
  const user = contents.filter((c) => c.role === 'user' && c.parts.some((p) => typeof p.text === 'string'));
  return (user.at(-1)?.parts ?? []).flatMap((p) => (p.text === undefined ? [] : [p.text])).at(-1) ?? '';
}

/** Every file under `dir`, read as text. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n');
}

describe('ralph --backend gemini against the real Gemini CLI', { timeout: 240_000 }, () => {
  it('runs a live loop that writes files, resumes its session and ends project_complete with tokens and an estimated cost', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const env = await geminiEnv([
      write('a.txt', 'first\n'),
      working('Wrote a.txt.'),
      write('b.txt', 'second\n'),
      done('Wrote b.txt; all tasks done.'),
      done('Nothing left to do.'),
    ]);
    const r = await ralph(['--backend', 'gemini', '--pause', '0', '--max-loops', '5', '--live'], dir, env, 180_000);
    expect(r.stderr).toContain('Gemini CLI 0.61.0');
    // Its settings leave the key visible to its commands: Ralph says how to change that.
    expect(r.stderr).toContain('Gemini CLI may pass GEMINI_API_KEY on to the commands it runs');
    // --live shows each tool call and the answer as Gemini streams them.
    expect(r.stderr.match(/\[Write\]/g)).toHaveLength(2);
    expect(r.stderr).toContain('Wrote b.txt; all tasks done.');
    expect(r.stderr).toContain('Exit reason: project_complete');
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('first\n');
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('second\n');
    const status = readJson(join(dir, '.ralph', 'status.json'));
    expect(status).toMatchObject({ exit_reason: 'project_complete', loop_count: 3, backend: 'gemini' });
    const totals = status['totals'] as Record<string, number>;
    expect(totals['calls']).toBe(3);
    expect(totals['input_tokens']).toBe(5 * 1200);
    expect(totals['output_tokens']).toBe(5 * 80);
    expect(totals['cost_usd']).toBeCloseTo((6000 * 0.3 + 400 * 2.5) / 1e6, 9);
    const requests = api?.requests ?? [];
    expect(requests).toHaveLength(5);
    expect(requests.every((q) => q.model === 'gemini-2.5-flash' && q.apiKey === FAKE_GEMINI_KEY)).toBe(true);
    // The loop context rides before the prompt; the second iteration resumes the first one's conversation.
    expect(lastUserText(requests[0]?.body ?? {})).toMatch(/^<loop_context>\nLoop #1\./);
    expect(lastUserText(requests[2]?.body ?? {})).toMatch(/^<loop_context>\nLoop #2\./);
    expect(JSON.stringify(requests[2]?.body['contents'])).toContain('Wrote a.txt.');
    expect(allText(join(dir, '.ralph'))).not.toContain(FAKE_GEMINI_KEY);
  });

  it('a failing verify sends its output back to Gemini, which fixes the work before the loop completes', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const env = await geminiEnv([write('wrong.txt', 'x\n'), done('Done, I think.'), write('fixed.txt', 'ok\n'), done('Fixed.')]);
    const r = await ralph(['run', '>>make-fixed :: verify:"test -f fixed.txt" loop:true', '--backend', 'gemini', '--pause', '0'], dir, env, 180_000);
    expect(r.exitCode).toBe(0);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'project_complete', loop_count: 2, verify: { state: 'passing' } });
    const second = lastUserText(api?.requests[2]?.body ?? {});
    expect(second).toContain('Shell Verification FAILED (Attempt 1/5)');
    expect(second).toContain('test -f fixed.txt');
    expect(lastUserText(api?.requests[0]?.body ?? {})).not.toContain('Shell Verification FAILED');
  });

  it('a refused shell command halts with the command and the ALLOWED_TOOLS line that would allow it (exit 4)', async () => {
    const dir = ralphProject({ ralphrc: `${RALPHRC}ALLOWED_TOOLS="Write,Bash(git *)"\n` });
    const env = await geminiEnv([shell('npm publish'), working('Could not publish.')]);
    const r = await ralph(['--backend', 'gemini', '--pause', '0'], dir, env, 120_000);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('PERMISSION DENIED');
    expect(r.stderr).toContain('Bash(npm publish)');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'permission_denied' });
    expect(readFileSync(join(dir, '.ralph', 'logs', readdirSync(join(dir, '.ralph', 'logs')).find((f) => f.endsWith('.policy.toml')) ?? ''), 'utf8')).toContain(
      'commandPrefix = ["git"]',
    );
  });

  it('a daily quota is a usage limit: past --max-runtime Ralph ends with usage_limit (exit 5) after one call', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const env = await geminiEnv([GEMINI_ERRORS.dailyQuota, GEMINI_ERRORS.dailyQuota]);
    const r = await ralph(['--backend', 'gemini', '--pause', '0', '--max-runtime', '60'], dir, env, 120_000);
    expect(r.exitCode).toBe(5);
    expect(api?.requests).toHaveLength(1);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'usage_limit' });
  });

  it('a daily quota whose reset only the API’s RetryInfo carries lifts at midnight Pacific time, not in an hour', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const env = await geminiEnv([GEMINI_ERRORS.dailyQuotaRetryInfoOnly]);
    const before = Date.now();
    const r = await ralph(['--backend', 'gemini', '--pause', '0', '--max-runtime', '60'], dir, env, 120_000);
    expect(r.exitCode, r.stderr).toBe(5);
    const shown = /the limit resets at ([^\n]+), after --max-runtime ends/.exec(r.stderr)?.[1] ?? '';
    // The wait Ralph chose: Google's daily reset plus Ralph's 30-90 s of jitter (UTC, C locale).
    const midnight = nextMidnight(before, 'America/Los_Angeles');
    const until = Date.parse(`${shown} UTC`);
    expect(until).toBeGreaterThanOrEqual(midnight);
    expect(until).toBeLessThanOrEqual(midnight + 91_000);
  });

  it("on Gemini CLI's default model (no GEMINI_MODEL) a call has an estimated cost, never $0.0000 and no price warning", async () => {
    const dir = ralphProject({ ralphrc: `GEMINI_CMD="${GEMINI}"\n` });
    const env = await geminiEnv([done('All done.'), done('Nothing left to do.')]);
    const r = await ralph(['--backend', 'gemini', '--pause', '0', '--max-loops', '1'], dir, env, 120_000);
    expect(r.stderr).not.toContain('No list price');
    expect(r.stderr).toMatch(/cost: \$0\.\d{4} \(estimated\);/);
    expect(r.stderr).not.toContain('cost: $0.0000');
    expect(api?.requests[0]?.model).toBe('gemini-3.8-flash');
    const totals = readJson(join(dir, '.ralph', 'status.json'))['totals'] as Record<string, number>;
    expect(totals['cost_usd']).toBeGreaterThan(0);
    expect(totals['cost_unknown_calls']).toBe(0);
  });

  it('a server error that outlasts Gemini’s own retries is retried by Ralph, and the loop goes on', async () => {
    const dir = ralphProject({ ralphrc: `${RALPHRC}API_RETRY_WAIT_SECONDS=0\n` });
    const env = await geminiEnv([GEMINI_ERRORS.serverError, write('c.txt', 'after the outage\n'), done('Wrote c.txt.'), done('Still done.')]);
    const r = await ralph(['--backend', 'gemini', '--pause', '0', '--max-loops', '5'], dir, env, 180_000);
    expect(r.stderr).toContain('An internal error has occurred');
    expect(r.exitCode).toBe(0);
    expect(api?.requests).toHaveLength(4);
    expect(readFileSync(join(dir, 'c.txt'), 'utf8')).toBe('after the outage\n');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'project_complete' });
  });

  it('a rejected API key stops at the first call with what to do (exit 1)', async () => {
    const dir = ralphProject({ ralphrc: RALPHRC });
    const env = await geminiEnv([GEMINI_ERRORS.badKey, GEMINI_ERRORS.badKey]);
    const r = await ralph(['--backend', 'gemini', '--pause', '0'], dir, env, 120_000);
    expect(r.exitCode).toBe(1);
    expect(api?.requests).toHaveLength(1);
    expect(r.stderr).toContain('API key not valid');
    expect(r.stderr).toContain('GEMINI_API_KEY');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'agent_failure', exit_code: 1 });
  });

  it("with Gemini's redaction on (as Ralph advises), its API key stays out of the commands it runs", async () => {
    const dir = ralphProject({ ralphrc: `${RALPHRC}ALLOWED_TOOLS="Write,Bash"\n` });
    const env = await geminiEnv([shell('env > command-env.txt'), done('Listed the environment.'), done('Nothing left to do.')]);
    const settings = join(env['HOME'] ?? '', '.gemini', 'settings.json');
    const current = JSON.parse(readFileSync(settings, 'utf8')) as { security: Record<string, unknown> };
    current.security['environmentVariableRedaction'] = { enabled: true };
    writeFileSync(settings, JSON.stringify(current));
    const r = await ralph(['--backend', 'gemini', '--pause', '0', '--max-loops', '2'], dir, env, 180_000);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('environmentVariableRedaction');
    const commandEnv = readFileSync(join(dir, 'command-env.txt'), 'utf8');
    expect(commandEnv).toMatch(/^GOOGLE_GEMINI_BASE_URL=/m);
    expect(commandEnv).not.toContain(FAKE_GEMINI_KEY);
    // Gemini itself still authenticated with the key.
    expect(api?.requests.every((q) => q.apiKey === FAKE_GEMINI_KEY)).toBe(true);
    expect(allText(join(dir, '.ralph'))).not.toContain(FAKE_GEMINI_KEY);
    expect(r.stderr).not.toContain(FAKE_GEMINI_KEY);
  });

  it('Ctrl+C ends the loop with 130 and leaves nothing of Gemini running', async () => {
    const dir = ralphProject({ ralphrc: `${RALPHRC}ALLOWED_TOOLS="Write,Bash"\n` });
    const pids = join(dir, 'pids.txt');
    const env = await geminiEnv([shell(`echo $PPID > "${pids}.parent"; echo $$ > "${pids}"; exec sleep 300`)]);
    const run = runCli('ralph', ['--backend', 'gemini', '--pause', '0'], dir, env, 120_000);
    const sleeper = track(await pidFromFile(pids, 60_000));
    const parent = track(await pidFromFile(`${pids}.parent`));
    run.kill('SIGINT');
    const r = await run;
    expect(r.exitCode).toBe(130);
    expect(await survivors([sleeper, parent])).toEqual([]);
  });
});

describe('the Gemini CLI check before the loop', () => {
  it('a missing CLI is one message with how to install it (exit 2)', async () => {
    const r = await ralph(['--backend', 'gemini'], ralphProject({ ralphrc: 'GEMINI_CMD=/nonexistent/gemini\n' }), cleanEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Gemini CLI not found: '/nonexistent/gemini' could not be started.");
    expect(r.stderr).toContain('npm install -g @google/gemini-cli');
  });

  it('a CLI older than GEMINI_MIN_VERSION is refused with how to update it (exit 2)', async () => {
    const bin = join(tempDir('old-gemini-'), 'gemini');
    writeFileSync(bin, '#!/bin/sh\necho 0.50.2\n');
    chmodSync(bin, 0o755);
    const r = await ralph(['--backend', 'gemini'], ralphProject({ ralphrc: `GEMINI_CMD="${bin}"\n` }), cleanEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Gemini CLI 0.50.2 is older than 0.61.0');
    expect(r.stderr).toContain('npm install -g @google/gemini-cli@latest');
  });
});

describe('the Gemini backend past its time limit', { timeout: 240_000 }, () => {
  it('ends as a timeout and stops Gemini and the command it was running', async () => {
    const dir = tempDir('gemini-timeout-');
    const pid = join(dir, 'sleeper.pid');
    const env = await geminiEnv([shell(`trap "" TERM; echo $PPID > "${pid}.parent"; echo $$ > "${pid}"; exec sleep 300`)]);
    const backend = geminiBackend({
      outputRedactor: () => NO_REDACTION,
      settings: { command: [GEMINI], model: 'gemini-2.5-flash', effort: '', extraArgs: [] },
      allowedTools: DEFAULT_ALLOWED_TOOLS.concat('Bash'),
      env,
      logger: createMemoryLogger(),
      killGraceMs: 500,
    });
    const request = { loop: 1, cwd: dir, prompt: 'p', loopContext: '', timeoutMs: 30_000, outputLogPath: join(dir, 'out.log'), live: false };
    const pending = backend.run(request, new AbortController().signal);
    const sleeper = track(await pidFromFile(pid, 30_000));
    const gemini = track(await pidFromFile(`${pid}.parent`));
    const result = await pending;
    expect(result.outcome).toEqual({ kind: 'timeout' });
    expect(result.end).toBe('timeout');
    expect([sleeper, gemini].filter(isRunning)).toEqual([]);
    expect(existsSync(join(dir, 'out.policy.toml'))).toBe(true);
  });
});
