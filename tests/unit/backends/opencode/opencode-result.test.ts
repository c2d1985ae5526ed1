import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentProgress } from '../../../../src/agent-result.js';
import type { OpencodeRun } from '../../../../src/backends/opencode/classify-opencode-call.js';
import { MAX_LINE_CHARS, OpencodeEventReader } from '../../../../src/backends/opencode/opencode-output.js';
import { readOpencodeStdout } from '../../support/read-stdout.js';
import { digestText } from '../../../../src/core/text-digest.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'opencode-cli');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const NOW = Date.parse('2026-11-23T22:17:04Z');
const exited = (exitCode: number): Omit<OpencodeRun, 'output'> => ({ end: 'exited', exitCode, durationMs: 5, stderrTail: '' });

describe('reading recorded OpenCode output', () => {
  it('a finished run: the last message, tokens of every step, tool uses and the session', () => {
    const progress: AgentProgress[] = [];
    const result = readOpencodeStdout(fixture('run-bash-status-block.jsonl'), exited(0), 'fake/fake-model', NOW, (e) => progress.push(e));
    expect(result.outcome).toEqual({ kind: 'success' });
    expect(result.complete).toBe(true);
    expect(digestText(result.text)).toContain('---RALPH_STATUS---\nSTATUS: COMPLETE');
    expect(result.sessionId).toBe('ses_df58aa0afffeZDfGXZUy0BMhxY');
    expect(result.usage).toEqual({ inputTokens: 180, outputTokens: 40, cacheReadInputTokens: 20, cacheCreationInputTokens: 0 });
    expect(result.turns).toBe(2);
    expect(result.toolUses).toBe(1);
    expect(result.lastToolUse).toEqual({ name: 'Bash', argument: 'echo ran > ran.txt' });
    expect(result.cost).toBeUndefined();
    expect(progress.map((e) => e.kind)).toEqual(['session_started', 'tool_use', 'message', 'finished']);
    expect(progress.at(-1)).toMatchObject({ kind: 'finished', isError: false, turns: 2 });
  });

  it('the cost OpenCode reports, or an estimate from the tokens for a listed model', () => {
    const reported = readOpencodeStdout(fixture('permission-denied-cost.jsonl'), exited(0), 'fake/fake-model', NOW);
    expect(reported.cost).toEqual({ usd: 0.001146, source: 'reported' });
    const estimated = readOpencodeStdout(fixture('run-write-success.jsonl'), exited(0), 'openai/gpt-5', NOW);
    // 180 input × 1.25 + 20 cached × 0.125 + 40 output × 10, per million tokens.
    expect(estimated.cost?.source).toBe('estimated');
    expect(estimated.cost?.usd).toBeCloseTo((180 * 1.25 + 20 * 0.125 + 40 * 10) / 1e6, 12);
  });

  it('a refused tool call is a permission denial under its Claude Code name', () => {
    const result = readOpencodeStdout(fixture('permission-denied-cost.jsonl'), exited(0), '', NOW);
    expect(result.outcome).toEqual({ kind: 'success' });
    expect(result.permissionDenials).toEqual([{ tool: 'Bash', detail: 'npm test' }]);
  });

  it('bad credentials stop the loop with advice', () => {
    const result = readOpencodeStdout(fixture('error-401-invalid-key.jsonl'), exited(1), '', NOW);
    expect(result.outcome).toMatchObject({ kind: 'unrecoverable', message: 'Invalid API key', advice: expect.stringContaining('opencode auth login') });
    expect(result.apiStatus).toBe(401);
    expect(result.complete).toBe(false);
  });

  it("OpenAI's insufficient_quota is billing, not a limit to wait for: it stops with advice", () => {
    const result = readOpencodeStdout(fixture('error-429-quota.jsonl'), exited(1), '', NOW);
    expect(result.outcome).toMatchObject({
      kind: 'unrecoverable',
      message: expect.stringContaining('exceeded your current quota'),
      advice: expect.stringContaining('no credit or quota left'),
    });
  });

  it('a 429 that a retry got past leaves a normal answer', () => {
    const result = readOpencodeStdout(fixture('retried-429-then-answer.jsonl'), exited(0), '', NOW);
    expect(result.outcome).toEqual({ kind: 'success' });
    expect(digestText(result.text)).toBe('done');
  });

  it('a non-zero exit without events fails with what stderr said', () => {
    const result = readOpencodeStdout('', { ...exited(2), stderrTail: 'Error: unknown option --bogus\n' }, '', NOW);
    expect(result.outcome).toEqual({ kind: 'failed', message: 'Error: unknown option --bogus (exit code 2)', resetSession: false });
  });

  it('a session OpenCode no longer has starts a new one', () => {
    // What opencode run --session with an unknown id printed: no event, this on stderr, exit 1.
    const result = readOpencodeStdout('', { ...exited(1), stderrTail: '\u001b[91m\u001b[1mError: \u001b[0mSession not found\n' }, '', NOW);
    expect(result.outcome).toEqual({ kind: 'failed', message: 'Error: Session not found (exit code 1)', resetSession: true });
  });

  it('a 5xx is transient, a 400 is the request failing', () => {
    const error = (status: number, message: string): string =>
      `${JSON.stringify({ type: 'error', sessionID: 'ses_x', error: { name: 'APIError', data: { message, statusCode: status } } })}\n`;
    expect(readOpencodeStdout(error(503, 'Service Unavailable'), exited(1), '', NOW).outcome).toMatchObject({ kind: 'api_transient', status: 503 });
    expect(readOpencodeStdout(error(400, 'model unavailable'), exited(1), '', NOW).outcome).toEqual({
      kind: 'failed',
      message: 'model unavailable (exit code 1)',
      resetSession: false,
    });
  });
});

describe('OpencodeEventReader', () => {
  it('reads events split anywhere across chunks', () => {
    const text = fixture('run-write-success.jsonl');
    const reader = new OpencodeEventReader();
    for (let i = 0; i < text.length; i += 7) reader.write(text.slice(i, i + 7));
    const output = reader.end();
    expect(output.events).toBe(6);
    expect(digestText(output.text)).toBe('ok done');
  });

  it('skips a line longer than it keeps, with a warning, and reads on', () => {
    const reader = new OpencodeEventReader();
    reader.write(`{"type":"text","part":{"text":"${'x'.repeat(MAX_LINE_CHARS)}`);
    reader.write(`"}}\n{"type":"text","sessionID":"ses_1","part":{"messageID":"m","text":"after"}}\n`);
    const output = reader.end();
    expect(output.warnings).toEqual([expect.stringContaining('was skipped')]);
    expect(digestText(output.text)).toBe('after');
    expect(output.sessionId).toBe('ses_1');
  });

  it('keeps only the last message with text', () => {
    const line = (messageID: string, text: string): string => `${JSON.stringify({ type: 'text', part: { messageID, text } })}\n`;
    const reader = new OpencodeEventReader();
    reader.write(line('m1', 'first') + line('m2', 'second') + line('m2', 'third'));
    expect(digestText(reader.end().text)).toBe('second\nthird');
  });
});
