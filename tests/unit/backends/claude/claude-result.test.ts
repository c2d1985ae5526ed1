import { describe, expect, it } from 'vitest';
import type { AgentProgress } from '../../../../src/agent-result.js';
import { readClaudeStdout } from '../../support/read-stdout.js';
import { digestText } from '../../../../src/core/text-digest.js';
import { expectedFromFile, fixture, loadFixtures } from './claude-fixtures.js';

/** The usage-limit fixtures were recorded two hours before their reset. */
const NOW = Date.parse('2026-11-22T12:39:00Z');

function read(name: string, onProgress?: (event: AgentProgress) => void): ReturnType<typeof readClaudeStdout> {
  const f = fixture(name);
  return readClaudeStdout(
    f.stdout,
    { end: 'exited', exitCode: f.exitCode, durationMs: 1200, stderrTail: f.stderr, details: { argv: 'claude -p' } },
    NOW,
    () => 'UTC',
    onProgress,
  );
}

describe('the neutral result of every recorded Claude output', () => {
  it.each(loadFixtures().map((f) => [f.name] as const))('%s', (name) => {
    const f = fixture(name);
    const expected = expectedFromFile(f.stdout);
    const result = read(name);
    expect(result.format).toBe(expected.format);
    expect(result.structured).toBe(expected.format === 'json' || expected.format === 'json-array' || expected.format === 'stream-json');
    expect(result.complete).toBe(expected.hasResult);
    expect(result.reportedError).toBe(expected.isError);
    expect(result.resultKind).toBe(expected.subtype);
    expect(result.apiStatus).toBe(expected.apiErrorStatus);
    expect(result.sessionId).toBe(expected.sessionId);
    expect(result.cost).toEqual(expected.costUsd === undefined ? undefined : { usd: expected.costUsd, source: 'reported' });
    expect(result.turns).toBe(expected.numTurns);
    expect(result.usage?.inputTokens).toBe(expected.inputTokens);
    expect(result.permissionDenials).toEqual(expected.permissionDenials);
    expect(result.toolUses).toBe(expected.toolUseCount);
    expect(result.lastToolUse?.name).toBe(expected.lastToolName);
    expect(result.errors).toEqual(expected.errors);
    if (expected.text !== '') expect(digestText(result.text)).toBe(expected.text);
    expect(result).toMatchObject({
      end: 'exited',
      exitCode: f.exitCode,
      durationMs: 1200,
      stderrTail: f.stderr,
      outputChars: f.stdout.length,
      details: { argv: 'claude -p' },
    });
  });
});

describe('progress read from a stream', () => {
  it('announces the session, each tool call with its argument, the messages and the end of the turn', () => {
    const progress: AgentProgress[] = [];
    const result = read('stream-json-success.jsonl', (event) => progress.push(event));
    expect(progress.map((e) => e.kind)).toEqual(['session_started', 'message', 'tool_use', 'tool_use', 'message', 'finished']);
    expect(progress[0]).toEqual({ kind: 'session_started', sessionId: result.sessionId });
    expect(progress.filter((e) => e.kind === 'tool_use')).toEqual([
      { kind: 'tool_use', tool: 'Write', argument: '/tmp/claude-cli-fixtures/stream-json-success/repo/hello.txt' },
      { kind: 'tool_use', tool: 'Bash', argument: 'git status --short' },
    ]);
    expect(progress.at(-1)).toMatchObject({ kind: 'finished', isError: false, turns: 3, costUsd: result.cost?.usd });
  });

  it('reports retries and a rejected usage limit with its reset time', () => {
    const progress: AgentProgress[] = [];
    read('stream-json-error-usage-limit.jsonl', (event) => progress.push(event));
    const limit = progress.find((e) => e.kind === 'usage_limit');
    expect(limit).toMatchObject({ kind: 'usage_limit', limitType: 'five_hour' });
    expect(limit?.kind === 'usage_limit' ? limit.resetsAt : undefined).toBeGreaterThan(NOW);
    const retries: AgentProgress[] = [];
    read('stream-json-rate-limit-retried-success.jsonl', (event) => retries.push(event));
    expect(retries.filter((e) => e.kind === 'api_retry')).toEqual([
      expect.objectContaining({ kind: 'api_retry', attempt: 1, status: 429, error: 'rate_limit' }),
      expect.objectContaining({ kind: 'api_retry', attempt: 2, status: 429, error: 'rate_limit' }),
    ]);
  });
});
