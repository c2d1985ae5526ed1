import { describe, expect, it } from 'vitest';
import type { AgentOutcome } from '../../../../src/agent-result.js';
import { classifyClaudeCall, type ClaudeRun } from '../../../../src/backends/claude/classify-claude-call.js';
import { scanOutput } from '../../../../src/backends/claude/output-scanner.js';
import { cliResult } from '../../support/analysis.js';
import { fixture, loadFixtures, type FixtureCase } from './claude-fixtures.js';

/** The usage-limit fixtures were recorded two hours before their reset ("resets 2:39pm (UTC)"). */
const NOW = Date.parse('2026-11-22T12:39:00Z');
const ZONE = (): string => 'UTC';

function runOf(stdout: string, overrides: Partial<ClaudeRun> = {}): ClaudeRun {
  return { end: 'exited', exitCode: 0, durationMs: 1000, output: scanOutput(stdout), stderrTail: '', ...overrides };
}

function runOfFixture(f: FixtureCase): ClaudeRun {
  return runOf(f.stdout, { exitCode: f.exitCode, stderrTail: f.stderr });
}

const classify = (run: ClaudeRun): AgentOutcome => classifyClaudeCall(run, NOW, ZONE);

/** What each recorded case must be classified as. */
const EXPECTED_KIND: Record<string, AgentOutcome['kind']> = {
  'json-success-tool-use.json': 'success',
  'json-success-allowed-tools.json': 'success',
  'json-permission-denied.json': 'success',
  'stream-json-success.jsonl': 'success',
  'stream-json-partial-messages.jsonl': 'success',
  'text-success.txt': 'success',
  'json-verbose-success.json': 'success',
  'json-resume-first.json': 'success',
  'json-resume-second.json': 'success',
  'json-append-system-prompt.json': 'success',
  'json-rate-limit-retried-success.json': 'success',
  'stream-json-rate-limit-retried-success.jsonl': 'success',
  'json-stall-mid-stream-recovered.json': 'success',
  'json-error-usage-limit.json': 'usage_limit',
  'json-error-usage-limit-no-reset.json': 'usage_limit',
  'stream-json-error-usage-limit.jsonl': 'usage_limit',
  'json-error-rate-limit.json': 'api_transient',
  'stream-json-error-rate-limit.jsonl': 'api_transient',
  'json-error-overloaded.json': 'api_transient',
  'json-error-server-500.json': 'api_transient',
  'json-error-auth.json': 'unrecoverable',
  'json-error-credit-balance.json': 'unrecoverable',
  'json-error-invalid-request.json': 'failed',
  'json-error-prompt-too-long.json': 'failed',
  'json-error-connection-refused.json': 'failed',
  'json-error-timeout.json': 'failed',
  'json-error-resume-not-found.json': 'failed',
  'json-error-root-skip-permissions.json': 'failed',
  'json-max-turns.json': 'failed',
  'json-max-budget.json': 'failed',
  'json-killed-sigterm.json': 'failed',
  'stream-json-killed-sigterm.jsonl': 'failed',
  'stream-json-killed-sigkill.jsonl': 'failed',
  'json-interrupted-sigint.json': 'failed',
  'stream-json-interrupted-sigint.jsonl': 'failed',
};

describe('classifyClaudeCall: every recorded fixture with its real exit code', () => {
  const fixtures = loadFixtures();

  it('covers every fixture', () => {
    expect(new Set(fixtures.map((f) => f.file))).toEqual(new Set(Object.keys(EXPECTED_KIND)));
  });

  it.each(fixtures.map((f) => [f.name, f] as const))('%s', (_name, f) => {
    expect(classify(runOfFixture(f)).kind).toBe(EXPECTED_KIND[f.file]);
  });
});

describe('classifyClaudeCall: failures no retry fixes', () => {
  it.each([
    ['json-error-auth.json', 'Invalid API key · Fix external API key', /API key/],
    ['v2.1.330/json-error-auth.json', 'Invalid API key', /claude \/login/],
    ['json-error-credit-balance.json', 'Credit balance is too low', /Billing/],
    ['v2.1.330/json-error-credit-balance.json', 'Credit balance is too low', /credits/],
  ])('%s stops with the CLI message and what to do', (name, message, advice) => {
    const outcome = classify(runOfFixture(fixture(name)));
    expect(outcome.kind).toBe('unrecoverable');
    if (outcome.kind !== 'unrecoverable') return;
    expect(outcome.message).toContain(message);
    expect(outcome.advice).toMatch(advice);
  });

  it('a revoked OAuth login in stderr, without a result object', () => {
    const run = runOf('', {
      exitCode: 1,
      stderrTail:
        'API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"OAuth token has been revoked. Please obtain a new token or refresh your existing token."}}\n',
    });
    expect(classify(run)).toMatchObject({ kind: 'unrecoverable', advice: expect.stringContaining('claude /login') });
  });

  it('a successful call that talks about API keys is a success', () => {
    expect(classify(runOf(cliResult('Fixed the "Invalid API key" message in src/auth.ts')))).toEqual({ kind: 'success' });
  });

  it('a server error (5xx) that outlasted the CLI’s own retries is transient, like a 529: retried with growing waits', () => {
    const run = runOf(cliResult('API Error: 500 Internal server error', { is_error: true, api_error_status: 500 }), { exitCode: 1 });
    expect(classify(run)).toMatchObject({ kind: 'api_transient', status: 500 });
  });
});

describe('classifyClaudeCall: usage limits', () => {
  it('the stream usage limit takes resetAt from the rate_limit_event (epoch seconds → ms)', () => {
    for (const name of ['stream-json-error-usage-limit.jsonl', 'v2.1.330/stream-json-error-usage-limit.jsonl']) {
      const f = fixture(name);
      const out = scanOutput(f.stdout);
      const outcome = classify(runOfFixture(f));
      expect(outcome.kind).toBe('usage_limit');
      if (outcome.kind === 'usage_limit') expect(outcome.resetAt).toBe((out.rateLimit?.resetsAt ?? 0) * 1000);
    }
  });

  it('the json usage limit parses "resets 2:39pm (UTC)" from the message', () => {
    const outcome = classify(runOfFixture(fixture('json-error-usage-limit.json')));
    expect(outcome).toEqual({
      kind: 'usage_limit',
      message: "You've hit your session limit · resets 2:39pm (UTC)",
      resetAt: Date.parse('2026-11-22T14:39:00Z'),
    });
  });

  it('v2.1.330 (api_error usage_limit_reached, "5-hour limit · resets 2:40pm (UTC)")', () => {
    const outcome = classify(runOfFixture(fixture('v2.1.330/json-error-usage-limit.json')));
    expect(outcome).toMatchObject({ kind: 'usage_limit', resetAt: Date.parse('2026-11-22T14:40:00Z') });
  });

  it('a usage limit reported with exit code 0 and is_error is still a usage limit', () => {
    const run = runOf(cliResult("You've hit your session limit · resets 2:39pm (UTC)", { is_error: true, api_error_status: 429 }), { exitCode: 0 });
    expect(classify(run)).toMatchObject({ kind: 'usage_limit', resetAt: Date.parse('2026-11-22T14:39:00Z') });
  });

  it('the default zone is asked for only to read a reset time from text, never for an ordinary call', () => {
    const asked: string[] = [];
    const zone = (): string => {
      asked.push('zone');
      return 'UTC';
    };
    for (const name of ['stream-json-success.jsonl', 'json-success-tool-use.json', 'stream-json-error-usage-limit.jsonl']) {
      classifyClaudeCall(runOfFixture(fixture(name)), NOW, zone);
    }
    expect(asked).toEqual([]);
    const textual = runOf(cliResult('Claude AI usage limit reached · resets 9pm', { is_error: true }), { exitCode: 1 });
    expect(classifyClaudeCall(textual, NOW, zone)).toMatchObject({ kind: 'usage_limit', resetAt: Date.parse('2026-11-22T21:00:00Z') });
    expect(asked).toEqual(['zone']);
  });

  it('a structural reset time already past means the limit lifted: retry now (plus the jitter)', () => {
    const stale = runOf(fixture('stream-json-error-usage-limit.jsonl').stdout, { exitCode: 1 });
    const now = 1795358345 * 1000 + 60_000;
    const later = classifyClaudeCall(stale, now, ZONE);
    expect(later.kind).toBe('usage_limit');
    if (later.kind === 'usage_limit') expect(later.resetAt).toBe(now);
  });

  it.each([
    ["You're out of extra usage · resets 9pm", 'out of extra usage'],
    ['Claude AI usage limit reached. Please try back later', 'usage limit reached'],
    ['5-hour limit reached', '5-hour'],
    ['You have hit your weekly limit', 'weekly limit'],
    ['Opus limit reached', 'opus limit'],
  ])('a failed call saying %j is a usage limit', (text) => {
    expect(classify(runOf(text, { exitCode: 1 })).kind).toBe('usage_limit');
  });

  it('a rejected rate_limit_event is a usage limit even without limit words', () => {
    const stream = [
      JSON.stringify({ type: 'rate_limit_event', rate_limit_info: { status: 'rejected', resetsAt: NOW / 1000 + 3600 } }),
      cliResult('API Error', { is_error: true }),
    ].join('\n');
    expect(classify(runOf(stream, { exitCode: 1 }))).toMatchObject({ kind: 'usage_limit', resetAt: NOW + 3_600_000 });
  });

  it('an allowed rate_limit_event (a warning) is not a usage limit', () => {
    const stream = [
      JSON.stringify({ type: 'rate_limit_event', rate_limit_info: { status: 'allowed_warning', resetsAt: NOW / 1000 + 3600 } }),
      cliResult('Server exploded', { is_error: true }),
    ].join('\n');
    expect(classify(runOf(stream, { exitCode: 1 })).kind).toBe('failed');
  });

  it('usage-limit words in a SUCCESSFUL answer are not a limit', () => {
    const text = 'I documented how the 5-hour limit works: when the usage limit is reached, try back later. resets 9pm';
    expect(classify(runOf(cliResult(text)))).toEqual({ kind: 'success' });
    expect(classify(runOf(text))).toEqual({ kind: 'success' });
  });

  it('usage-limit words echoed from tool results do not make a failure a usage limit', () => {
    const stream = [
      JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'docs: the 5-hour limit is reached when…' }] } }),
      cliResult('API Error: 400 Invalid request', { is_error: true, api_error_status: 400 }),
    ].join('\n');
    expect(classify(runOf(stream, { exitCode: 1 })).kind).toBe('failed');
  });
});

describe('classifyClaudeCall: timeouts, interrupts, spawn failures', () => {
  it('a timeout is never a usage limit, even when the output mentions the 5-hour limit (#183)', () => {
    const run = runOf("You've hit your 5-hour limit · resets 9pm\nusage limit reached", { end: 'timeout', exitCode: undefined, signal: 'SIGTERM' });
    expect(classify(run)).toEqual({ kind: 'timeout' });
  });

  it('an interrupted run is interrupted', () => {
    expect(classify(runOf('', { end: 'interrupted', exitCode: undefined, signal: 'SIGINT' }))).toEqual({ kind: 'interrupted' });
  });

  it('a spawn failure marked fatal stops the loop', () => {
    expect(classify(runOf('', { end: 'spawn_failed', exitCode: undefined, failure: 'claude: command not found', fatal: true }))).toEqual({
      kind: 'fatal',
      message: 'claude: command not found',
    });
  });

  it('a spawn failure that is not fatal is a plain failure', () => {
    expect(classify(runOf('', { end: 'spawn_failed', exitCode: undefined, failure: 'EAGAIN' }))).toEqual({
      kind: 'failed',
      message: 'EAGAIN',
      resetSession: false,
    });
    expect(classify(runOf('', { end: 'spawn_failed', exitCode: undefined }))).toMatchObject({ kind: 'failed', message: 'the agent could not be started' });
  });
});

describe('classifyClaudeCall: API errors', () => {
  it.each([
    ['429 rate_limit_error', 'json-error-rate-limit.json', 429],
    ['529 overloaded', 'json-error-overloaded.json', 529],
    ['429 in v2.1.330', 'v2.1.330/json-error-rate-limit.json', 429],
    ['529 in v2.1.330', 'v2.1.330/json-error-overloaded.json', 529],
    ['500 server error', 'json-error-server-500.json', 500],
    ['500 in v2.1.330', 'v2.1.330/json-error-server-500.json', 500],
  ])('%s → api_transient with the HTTP status', (_name, file, status) => {
    const outcome = classify(runOfFixture(fixture(file)));
    expect(outcome.kind).toBe('api_transient');
    if (outcome.kind === 'api_transient') {
      expect(outcome.status).toBe(status);
      expect(outcome.message).toContain('(exit code 1)');
    }
  });

  it('the literal "rate_limit_error" in a failed text output is transient (seed 002)', () => {
    expect(classify(runOf('rate_limit_error: please retry', { exitCode: 1 }))).toMatchObject({ kind: 'api_transient' });
  });

  it.each([['400 invalid request', 'json-error-invalid-request.json']])('%s → failed without a session reset', (_name, file) => {
    const outcome = classify(runOfFixture(fixture(file)));
    expect(outcome).toMatchObject({ kind: 'failed', resetSession: false });
  });

  it('prompt too long → failed with a session reset', () => {
    for (const name of ['json-error-prompt-too-long.json', 'v2.1.330/json-error-prompt-too-long.json']) {
      expect(classify(runOfFixture(fixture(name)))).toMatchObject({ kind: 'failed', resetSession: true });
    }
  });

  it('an unknown --resume id (stderr only) → failed with a session reset and the stderr message', () => {
    const outcome = classify(runOfFixture(fixture('json-error-resume-not-found.json')));
    expect(outcome.kind).toBe('failed');
    if (outcome.kind === 'failed') {
      expect(outcome.resetSession).toBe(true);
      expect(outcome.message).toContain('No conversation found with session ID');
      expect(outcome.message).toContain('(exit code 1)');
    }
  });

  it('tool use concurrency errors reset the session (#134)', () => {
    const run = runOf(cliResult('API Error: 400 due to tool use concurrency issues', { is_error: true }), { exitCode: 0 });
    expect(classify(run)).toMatchObject({ kind: 'failed', resetSession: true });
  });

  it('a SIGINT result with is_error (exit 0) is failed, with its errors[] as the message', () => {
    const f = fixture('json-interrupted-sigint.json');
    const outcome = classify(runOfFixture(f));
    expect(f.exitCode).toBe(0);
    expect(outcome.kind).toBe('failed');
    if (outcome.kind === 'failed') expect(outcome.message).toContain('[ede_diagnostic]');
  });

  it('exit code 0 with is_error: true is a failure (#134)', () => {
    expect(classify(runOf(cliResult('Something broke', { is_error: true }), { exitCode: 0 })).kind).toBe('failed');
  });

  it('a non-zero exit without is_error is a failure', () => {
    expect(classify(runOf(cliResult('looked fine'), { exitCode: 2 })).kind).toBe('failed');
  });

  it('no exit code at all (killed by a signal) is a failure that says so', () => {
    const outcome = classify(runOf('', { exitCode: undefined, signal: 'SIGKILL' }));
    expect(outcome).toEqual({ kind: 'failed', message: 'Claude Code failed (killed by SIGKILL) without output', resetSession: false });
  });

  it('an empty failed output falls back to stderr for the message', () => {
    const outcome = classify(runOf('', { exitCode: 1, stderrTail: 'line 1\nline 2\nfatal: the actual reason\n' }));
    expect(outcome).toMatchObject({ kind: 'failed' });
    if (outcome.kind === 'failed') expect(outcome.message).toContain('fatal: the actual reason');
  });

  it('the failure message is bounded', () => {
    const outcome = classify(runOf(cliResult('x'.repeat(5000), { is_error: true }), { exitCode: 1 }));
    if (outcome.kind !== 'failed') throw new Error(outcome.kind);
    expect(outcome.message.length).toBeLessThan(600);
  });
});
