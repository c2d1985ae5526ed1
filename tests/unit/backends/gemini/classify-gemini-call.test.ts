import { describe, expect, it } from 'vitest';
import { classifyGeminiCall, geminiApiStatus, geminiRetryAt, readableGeminiError } from '../../../../src/backends/gemini/classify-gemini-call.js';
import { toGeminiResult } from '../../../../src/backends/gemini/gemini-result.js';
import { geminiFixture, readGeminiOutput, recordedRun } from './gemini-fixtures.js';

const NOW = Date.parse('2026-11-23T21:47:30Z');
const empty = readGeminiOutput('');

describe('classifyGeminiCall, on what Gemini CLI 0.61 printed', () => {
  it('a finished call is a success', () => {
    expect(classifyGeminiCall(recordedRun('stream-json-success-tool-use.jsonl'), NOW)).toEqual({ kind: 'success' });
  });

  it('a daily quota is a usage limit that lifts when the API said', () => {
    const outcome = classifyGeminiCall(recordedRun('stream-json-error-daily-quota.jsonl'), NOW);
    expect(outcome).toEqual({
      kind: 'usage_limit',
      message: expect.stringContaining('exhausted your daily quota'),
      resetAt: NOW + (13 * 3600 + 5 * 60 + 2.5) * 1000,
    });
  });

  it('a daily quota whose delay only the API’s RetryInfo carried (Gemini CLI prints none) lifts at midnight Pacific time, not in an hour', () => {
    // 21:47:30 UTC on 23 Nov is 13:47:30 in Los Angeles (PST): the quota resets at 00:00 PST, 08:00 UTC.
    expect(classifyGeminiCall(recordedRun('stream-json-error-daily-quota-retry-info.jsonl'), NOW)).toEqual({
      kind: 'usage_limit',
      message: expect.stringContaining('exhausted your daily quota'),
      resetAt: Date.parse('2026-11-24T08:00:00Z'),
    });
  });

  it('billing turned off for the project is no limit to wait for: it stops with advice', () => {
    expect(classifyGeminiCall(recordedRun('stream-json-error-billing-disabled.jsonl'), NOW)).toMatchObject({
      kind: 'unrecoverable',
      message: expect.stringContaining('requires billing to be enabled'),
      advice: expect.stringContaining('credit'),
    });
  });

  it('a per-minute quota that outlasted Gemini’s own retries is transient', () => {
    expect(classifyGeminiCall(recordedRun('stream-json-error-rate-limit.jsonl'), NOW)).toMatchObject({ kind: 'api_transient', status: 429 });
  });

  it('a server error is transient, with its status', () => {
    expect(classifyGeminiCall(recordedRun('stream-json-error-server-500.jsonl'), NOW)).toMatchObject({
      kind: 'api_transient',
      status: 500,
      message: expect.stringContaining('An internal error has occurred'),
    });
  });

  it.each(['stream-json-error-bad-api-key.jsonl', 'stream-json-error-unauthenticated.jsonl'])('%s stops the loop with advice', (name) => {
    const outcome = classifyGeminiCall(recordedRun(name), NOW);
    expect(outcome).toMatchObject({ kind: 'unrecoverable', advice: expect.stringContaining('GEMINI_API_KEY') });
  });

  it('no login configured stops the loop with advice', () => {
    const run = { end: 'exited' as const, exitCode: 41, durationMs: 1, output: empty, stderrTail: geminiFixture('no-auth-method.stderr.txt') };
    expect(classifyGeminiCall(run, NOW)).toMatchObject({ kind: 'unrecoverable', message: expect.stringContaining('Please set an Auth method') });
  });

  it('an unknown session to resume fails and drops the session', () => {
    const run = { end: 'exited' as const, exitCode: 42, durationMs: 1, output: empty, stderrTail: geminiFixture('resume-unknown-session.stderr.txt') };
    expect(classifyGeminiCall(run, NOW)).toMatchObject({ kind: 'failed', resetSession: true, message: expect.stringContaining('Invalid session identifier') });
  });

  it('an untrusted folder cannot run at all', () => {
    const run = { end: 'exited' as const, exitCode: 55, durationMs: 1, output: empty, stderrTail: geminiFixture('untrusted-folder.stderr.txt') };
    expect(classifyGeminiCall(run, NOW)).toMatchObject({ kind: 'fatal', message: expect.stringContaining('not running in a trusted directory') });
  });

  it('a result with status error is a failure even with exit code 0', () => {
    const line = JSON.stringify({ type: 'result', status: 'error', error: { type: 'unknown', message: 'something broke' } });
    const run = { end: 'exited' as const, exitCode: 0, durationMs: 1, output: readGeminiOutput(line), stderrTail: '' };
    expect(classifyGeminiCall(run, NOW)).toEqual({ kind: 'failed', message: 'something broke (exit code 0)', resetSession: false });
  });

  it('how the process ended comes first', () => {
    const base = { exitCode: undefined, durationMs: 1, output: empty, stderrTail: '' };
    expect(classifyGeminiCall({ ...base, end: 'timeout' }, NOW)).toEqual({ kind: 'timeout' });
    expect(classifyGeminiCall({ ...base, end: 'interrupted' }, NOW)).toEqual({ kind: 'interrupted' });
    expect(classifyGeminiCall({ ...base, end: 'spawn_failed', failure: 'command not found: gemini', fatal: true }, NOW)).toEqual({
      kind: 'fatal',
      message: 'command not found: gemini',
    });
  });
});

describe('the pieces of an error', () => {
  it('reads the HTTP status from the error JSON, else from the exit code', () => {
    expect(geminiApiStatus('[API Error: {"error":{"code":503,"message":"x"}}]', 244)).toBe(503);
    expect(geminiApiStatus(undefined, 173)).toBe(429);
    expect(geminiApiStatus(undefined, 1)).toBeUndefined();
    expect(geminiApiStatus(undefined, 130)).toBeUndefined();
  });

  it('unwraps the API message', () => {
    expect(readableGeminiError('[API Error: {"error":{"code":400,"message":"API key not valid. \\"x\\""}}]')).toBe('API key not valid. "x"');
    expect(readableGeminiError('[API Error: You have exhausted your daily quota on this model.]\nPlease wait')).toBe(
      'You have exhausted your daily quota on this model.\nPlease wait',
    );
  });

  it.each([
    ['Please retry in 13h5m2.5s.', (13 * 3600 + 5 * 60 + 2.5) * 1000],
    ['Please retry in 1.5s.', 1500],
    ['Please retry in 250ms', 250],
    ['"retryDelay":"47102s"', 47_102_000],
  ])('reads when to come back from %s', (text, wait) => {
    expect(geminiRetryAt(text, NOW)).toBe(NOW + wait);
  });

  it('has no time to come back to when the API gave none', () => {
    expect(geminiRetryAt('You have exhausted your daily quota on this model.', NOW)).toBeUndefined();
  });
});

describe('toGeminiResult', () => {
  it('estimates the cost from the tokens per model, and says it is estimated', () => {
    const result = toGeminiResult(recordedRun('stream-json-success-tool-use.jsonl'), NOW);
    // gemini-2.5-flash: 3600 input at $0.30 and 240 output at $2.50 per million.
    expect(result.cost).toEqual({ usd: (3600 * 0.3 + 240 * 2.5) / 1_000_000, source: 'estimated' });
    expect(result.sessionId).toBe('dd79a2b2-627f-4801-84f9-2e4ff96b3000');
    expect(result.complete).toBe(true);
    expect(result.structured).toBe(true);
  });

  it('gives no cost for a model the price table does not list', () => {
    const line = JSON.stringify({ type: 'result', status: 'success', stats: { models: { 'gemini-99-ultra': { input: 10, output_tokens: 5, cached: 0 } } } });
    const run = { end: 'exited' as const, exitCode: 0, durationMs: 1, output: readGeminiOutput(line), stderrTail: '' };
    expect(toGeminiResult(run, NOW).cost).toBeUndefined();
  });

  it('records the API status of a failed call', () => {
    const result = toGeminiResult(recordedRun('stream-json-error-server-500.jsonl'), NOW);
    expect(result.apiStatus).toBe(500);
    expect(result.reportedError).toBe(true);
    expect(result.complete).toBe(false);
  });
});
