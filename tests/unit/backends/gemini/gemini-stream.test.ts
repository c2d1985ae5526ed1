import { describe, expect, it } from 'vitest';
import type { AgentProgress } from '../../../../src/agent-result.js';
import { digestText } from '../../../../src/core/text-digest.js';
import { geminiFixture, readGeminiOutput } from './gemini-fixtures.js';

describe('GeminiStreamReader', () => {
  it('reads the recorded tool-using call: session, answer, tokens per model, tool uses in Ralph names', () => {
    const out = readGeminiOutput(geminiFixture('stream-json-success-tool-use.jsonl'));
    expect(out.sessionId).toBe('dd79a2b2-627f-4801-84f9-2e4ff96b3000');
    expect(digestText(out.text)).toBe('Created hello.txt and checked git status.');
    expect(out.hasResult).toBe(true);
    expect(out.resultStatus).toBe('success');
    expect(out.usage).toEqual({ inputTokens: 3600, outputTokens: 240, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 });
    expect(out.modelUsage.map((m) => m.model)).toEqual(['gemini-2.5-flash']);
    expect(out.toolUseCount).toBe(2);
    expect(out.lastToolUse).toEqual({ name: 'Bash', argument: 'git status --short' });
    expect(out.permissionDenials).toEqual([]);
  });

  it('reads the same whatever the pieces the stream arrives in', () => {
    const stdout = geminiFixture('stream-json-success-tool-use.jsonl');
    const whole = readGeminiOutput(stdout);
    for (const chunk of [1, 7, 64]) expect(readGeminiOutput(stdout, chunk)).toEqual(whole);
  });

  it('counts cached input apart from the rest, as Gemini does in `input`', () => {
    const line = JSON.stringify({
      type: 'result',
      status: 'success',
      stats: { input_tokens: 5000, output_tokens: 100, cached: 4000, input: 1000, models: {} },
    });
    expect(readGeminiOutput(`${line}\n`).usage).toEqual({ inputTokens: 1000, outputTokens: 100, cacheReadInputTokens: 4000, cacheCreationInputTokens: 0 });
  });

  it('reports a call the policy refused, with its command', () => {
    const out = readGeminiOutput(geminiFixture('stream-json-policy-denied.jsonl'));
    expect(out.permissionDenials).toEqual([{ tool: 'Bash', detail: 'npm test' }]);
    expect(out.toolUseCount).toBe(3);
    expect(out.resultStatus).toBe('success');
  });

  it("keeps an API error's message from the result", () => {
    const out = readGeminiOutput(geminiFixture('stream-json-error-bad-api-key.jsonl'));
    expect(out.resultStatus).toBe('error');
    expect(out.errorMessage).toContain('API key not valid');
    expect(digestText(out.text)).toBe('');
  });

  it('turns the stream into progress: session, deltas closed by each tool call, the end of the turn', () => {
    const progress: AgentProgress[] = [];
    readGeminiOutput(geminiFixture('stream-json-success-tool-use.jsonl'), 50, (e) => progress.push(e));
    expect(progress.map((e) => e.kind)).toEqual(['session_started', 'tool_use', 'tool_use', 'text_delta', 'text_end', 'finished']);
    expect(progress[1]).toEqual({ kind: 'tool_use', tool: 'Write', argument: 'hello.txt' });
    expect(progress.at(-1)).toMatchObject({ kind: 'finished', isError: false, answer: 'Created hello.txt and checked git status.', durationMs: 397 });
  });

  it('skips a line too long to hold, and says so, and reads on', () => {
    const huge = JSON.stringify({ type: 'tool_result', tool_id: 'x', status: 'success', output: 'y'.repeat(5 * 1024 * 1024) });
    const answer = JSON.stringify({ type: 'message', role: 'assistant', content: 'after', delta: true });
    const out = readGeminiOutput(`${huge}\n${answer}\n`, 64 * 1024);
    expect(digestText(out.text)).toBe('after');
    expect(out.warnings).toEqual([expect.stringContaining('1 output line(s) longer than')]);
  });

  it('keeps lines that are not JSON events only as a short text', () => {
    const out = readGeminiOutput(`notice from a wrapper\n${'z'.repeat(10_000)}\n{"type":"init","session_id":"s-1"}\n`);
    expect(out.sessionId).toBe('s-1');
    expect(out.otherText.startsWith('notice from a wrapper\n')).toBe(true);
    expect(out.otherText.length).toBeLessThanOrEqual(4097);
  });

  it('keeps error events: severity error as errors, others as warnings', () => {
    const lines = [
      { type: 'error', severity: 'warning', message: 'Loop detected, stopping execution' },
      { type: 'error', severity: 'error', message: 'Maximum session turns exceeded' },
    ];
    const out = readGeminiOutput(lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(out.errors).toEqual(['Maximum session turns exceeded']);
    expect(out.warnings).toEqual(['Loop detected, stopping execution']);
  });
});
