import { NO_REDACTION } from '../../../src/core/secret-redactor.js';
// The recording decorator around the real Claude backend: a call the fake `claude` answers from a
// recorded fixture is written as a new fixture, which the fake `claude` then replays unchanged.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentProgress, AgentResult } from '../../../src/agent-result.js';
import { claudeBackend } from '../../../src/backends/claude/claude-backend.js';
import { RecordingBackend } from '../../../src/backends/recording-backend.js';
import type { AgentBackend, AgentRequest } from '../../../src/ports.js';
import { createMemoryLogger } from '../../../src/ui/logger.js';
import { fakeClaude } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'claude-cli');

function claude(env: Record<string, string>): AgentBackend {
  return claudeBackend({
    outputRedactor: () => NO_REDACTION,
    settings: { command: ['claude'], model: '', effort: '', extraArgs: [] },
    outputFormat: 'json',
    allowedTools: ['Write', 'Bash(git *)'],
    env,
    logger: createMemoryLogger(),
    killGraceMs: 500,
    now: () => Date.parse('2026-11-22T12:00:00Z'),
    timeZone: 'UTC',
  });
}

async function call(backend: AgentBackend, cwd: string, live: boolean): Promise<{ result: AgentResult; progress: AgentProgress[] }> {
  const progress: AgentProgress[] = [];
  const request: AgentRequest = {
    loop: 1,
    cwd,
    prompt: 'Create hello.txt',
    loopContext: 'Loop #1.',
    timeoutMs: 30_000,
    outputLogPath: join(cwd, 'out.log'),
    live,
    onProgress: (event) => progress.push(event),
  };
  return { result: await backend.run(request, new AbortController().signal), progress };
}

/** What must survive a record-and-replay round trip. */
function essence(result: AgentResult): Partial<AgentResult> {
  const { outcome, text, format, sessionId, cost, usage, permissionDenials, toolUses, exitCode, reportedError } = result;
  return { outcome, text, format, sessionId, cost, usage, permissionDenials, toolUses, exitCode, reportedError } as Partial<AgentResult>;
}

describe('RecordingBackend', () => {
  it.each([
    ['stream-json-success.jsonl', true, 'jsonl', 0],
    ['json-permission-denied.json', false, 'json', 0],
    ['json-error-usage-limit.json', false, 'json', 1],
  ] as const)('records %s as a fixture the fake claude replays with the same result and progress', async (fixture, live, ext, exit) => {
    const cwd = tempDir('record-cwd-');
    const dir = tempDir('recorded-');
    const original = fakeClaude([{ fixture, exit }]);
    const recorder = new RecordingBackend(claude(original.env), { dir, name: 'captured', about: `re-recorded ${fixture}` });
    const first = await call(recorder, cwd, live);
    expect(first.result.outcome.kind).toBe(exit === 0 ? 'success' : 'usage_limit');

    const stdout = readFileSync(join(dir, `captured.${ext}`), 'utf8');
    expect(stdout).toBe(readFileSync(join(FIXTURES, fixture), 'utf8'));
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { cases: Array<Record<string, unknown>> };
    expect(manifest.cases).toEqual([
      expect.objectContaining({
        file: `captured.${ext}`,
        stderr_file: null,
        exit_code: exit,
        about: `re-recorded ${fixture}`,
        resumed_session_from: null,
        claude_command: expect.stringContaining('-p <prompt:16 chars>'),
      }),
    ]);

    const replay = fakeClaude([{ fixture: `captured.${ext}`, exit: manifest.cases[0]?.['exit_code'] as number }], { env: { FAKE_CLAUDE_FIXTURES: dir } });
    const second = await call(claude(replay.env), cwd, live);
    expect(essence(second.result)).toEqual(essence(first.result));
    expect(second.progress).toEqual(first.progress);
  });

  it('numbers further calls and keeps stderr beside them', async () => {
    const cwd = tempDir('record-cwd-');
    const dir = tempDir('recorded-');
    const fake = fakeClaude([{ fixture: 'json-success-tool-use.json' }, { stdout: '', stderr: 'No conversation found with session ID: x\n', exit: 1 }]);
    const recorder = new RecordingBackend(claude(fake.env), { dir, name: 'pair', about: 'two calls' });
    await call(recorder, cwd, false);
    const second = await call(recorder, cwd, false);
    expect(second.result.outcome).toMatchObject({ kind: 'failed', resetSession: true });
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { cases: Array<Record<string, unknown>> };
    expect(manifest.cases.map((c) => [c['file'], c['stderr_file'], c['exit_code']])).toEqual([
      ['pair.json', null, 0],
      ['pair-2.txt', 'pair-2.stderr.txt', 1],
    ]);
    expect(readFileSync(join(dir, 'pair-2.stderr.txt'), 'utf8')).toBe('No conversation found with session ID: x\n');
  });
});
