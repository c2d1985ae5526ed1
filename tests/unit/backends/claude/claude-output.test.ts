import { describe, expect, it } from 'vitest';
import { ClaudeOutputBuilder, emptyClaudeOutput } from '../../../../src/backends/claude/claude-output.js';
import { toolArgument } from '../../../../src/backends/claude/claude-tool-argument.js';
import { digestOf, digestText } from '../../../../src/core/text-digest.js';

function build(values: unknown[], options: { raw?: string; looksLikeJson?: boolean; parseError?: string; incomplete?: boolean } = {}) {
  const builder = new ClaudeOutputBuilder();
  for (const v of values) builder.accept(v);
  const raw = options.raw ?? values.map((v) => JSON.stringify(v)).join('\n');
  return builder.finish(digestOf(raw), raw.length, options.looksLikeJson ?? true, options.parseError, options.incomplete ?? false);
}

describe('toolArgument', () => {
  it.each([
    ['Bash', { command: 'npm test -- --watch=false\nsecond line' }, 'npm test -- --watch=false'],
    ['Read', { file_path: '/repo/src/index.ts' }, '/repo/src/index.ts'],
    ['Write', { file_path: '/repo/hello.txt', content: 'x' }, '/repo/hello.txt'],
    ['Edit', { file_path: '/repo/a.ts' }, '/repo/a.ts'],
    ['MultiEdit', { file_path: '/repo/b.ts' }, '/repo/b.ts'],
    ['NotebookEdit', { notebook_path: '/repo/n.ipynb' }, '/repo/n.ipynb'],
    ['Glob', { pattern: 'src/**/*.ts' }, 'src/**/*.ts'],
    ['Grep', { pattern: 'TODO', path: 'src' }, 'TODO'],
    ['Agent', { description: 'Review the diff' }, 'Review the diff'],
    ['Task', { description: 'Explore the repo' }, 'Explore the repo'],
    ['WebFetch', { url: 'https://example.com' }, 'https://example.com'],
    ['WebSearch', { query: 'vitest it.fails' }, 'vitest it.fails'],
    ['mcp__x__y', { description: 'mcp call' }, 'mcp call'],
  ])('%s → %j', (name, input, argument) => {
    expect(toolArgument(name, input)).toBe(argument);
  });

  it('cuts a long first line at 120 characters', () => {
    const arg = toolArgument('Bash', { command: 'x'.repeat(300) });
    expect(arg).toBe(`${'x'.repeat(120)}…`);
  });

  it.each([
    ['Bash', null],
    ['Bash', 'ls'],
    ['Bash', ['ls']],
    ['Bash', { command: 42 }],
    ['Read', {}],
    ['Unknown', { other: 'x' }],
  ])('%s with input %j has no argument', (name, input) => {
    expect(toolArgument(name, input)).toBeUndefined();
  });
});

describe('ClaudeOutputBuilder', () => {
  it('starts from an empty output', () => {
    expect(emptyClaudeOutput()).toMatchObject({
      format: 'empty',
      chars: 0,
      hasResult: false,
      errors: [],
      permissionDenials: [],
      apiRetries: 0,
      toolUseCount: 0,
      warnings: [],
    });
  });

  it('reads permission denials: Bash commands keep their first line, other tools their name', () => {
    const out = build([
      {
        type: 'result',
        permission_denials: [
          { tool_name: 'Bash', tool_input: { command: '  mvn clean compile 2>&1 | tail -40\nsecond' } },
          { tool_name: 'AskUserQuestion', tool_input: { question: 'ok?' } },
          { tool_name: 'Bash', tool_input: {} },
          { tool_input: { command: 'x' } },
          'junk',
        ],
      },
    ]);
    expect(out.permissionDenials).toEqual([
      { tool: 'Bash', detail: 'mvn clean compile 2>&1 | tail -40' },
      { tool: 'AskUserQuestion' },
      { tool: 'Bash' },
      { tool: 'unknown' },
    ]);
  });

  it('keeps the last rate_limit_event of a stream', () => {
    const out = build([
      { type: 'rate_limit_event', rate_limit_info: { status: 'allowed_warning', resetsAt: 100, rateLimitType: 'five_hour' } },
      { type: 'rate_limit_event', rate_limit_info: { status: 'rejected', resetsAt: 200, rateLimitType: 'seven_day' } },
      { type: 'rate_limit_event', rate_limit_info: 'junk' },
    ]);
    expect(out.rateLimit).toEqual({ status: 'rejected', resetsAt: 200, type: 'seven_day' });
  });

  it('counts api_retry events and keeps the synthetic assistant error', () => {
    const out = build([
      { type: 'system', subtype: 'api_retry', attempt: 1 },
      { type: 'system', subtype: 'api_retry', attempt: 2 },
      { type: 'assistant', error: 'rate_limit', message: { model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 429' }] } },
    ]);
    expect(out.apiRetries).toBe(2);
    expect(out.streamError).toBe('rate_limit');
  });

  it('without a result, uses the last non-empty assistant text and the init session id', () => {
    const out = build([
      { type: 'system', subtype: 'init', session_id: 'init-1', model: 'claude-x' },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'first' }] } },
      {
        type: 'assistant',
        message: {
          content: [
            { type: 'text', text: 'second' },
            { type: 'tool_use', name: 'Read', input: { file_path: 'a.ts' } },
          ],
        },
      },
      { type: 'assistant', message: { content: [{ type: 'text', text: '' }] } },
    ]);
    expect(out.hasResult).toBe(false);
    expect(digestText(out.text)).toBe('second');
    expect(out.sessionId).toBe('init-1');
    expect(out.model).toBe('claude-x');
    expect(out.lastToolUse).toEqual({ name: 'Read', argument: 'a.ts' });
    expect(out.toolUseCount).toBe(1);
  });

  it('the result session id wins over the init one', () => {
    const out = build([
      { type: 'system', subtype: 'init', session_id: 'init-1' },
      { type: 'result', session_id: 'result-1', result: 'ok' },
    ]);
    expect(out.sessionId).toBe('result-1');
  });

  it('reads sessionId and metadata.session_id when session_id is missing', () => {
    expect(build([{ type: 'result', sessionId: 'camel' }]).sessionId).toBe('camel');
    expect(build([{ type: 'result', metadata: { session_id: 'meta' } }]).sessionId).toBe('meta');
  });

  it('reads usage, cost, turns, duration and the result fields of 2.1.330', () => {
    const out = build([
      {
        type: 'result',
        usage: { input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 7, cache_creation_input_tokens: 3 },
        total_cost_usd: 0.12,
        num_turns: 4,
        duration_ms: 1234,
        api_error_type: 'overloaded_error',
        api_error: 'connection_failed',
        terminal_reason: 'api_error',
        errors: ['a', 'b'],
      },
    ]);
    expect(out.usage).toEqual({ inputTokens: 100, outputTokens: 50, cacheReadInputTokens: 7, cacheCreationInputTokens: 3 });
    expect(out).toMatchObject({
      costUsd: 0.12,
      numTurns: 4,
      durationMs: 1234,
      apiErrorType: 'overloaded_error',
      apiError: 'connection_failed',
      terminalReason: 'api_error',
      errors: ['a', 'b'],
    });
  });

  it('reads is_error given as a string', () => {
    expect(build([{ type: 'result', is_error: 'true' }]).isError).toBe(true);
    expect(build([{ type: 'result', is_error: 'FALSE' }]).isError).toBe(false);
  });

  it('ignores non-finite and wrongly typed numbers', () => {
    const out = build([{ type: 'result', total_cost_usd: '1', num_turns: true }]);
    expect(out.costUsd).toBeUndefined();
    expect(out.numTurns).toBeUndefined();
  });

  it('caps the errors list at 20', () => {
    const errors = Array.from({ length: 30 }, (_, i) => `e${i}`);
    expect(build([{ type: 'result', errors }]).errors).toHaveLength(20);
  });

  it('reports a parse error as a warning and analyzes the raw text', () => {
    const raw = '{"type":"result", broken';
    const out = build([], { raw, parseError: 'expected a key at character 19' });
    expect(out.format).toBe('text');
    expect(out.warnings).toEqual(['agent output is not valid JSON (expected a key at character 19); analyzed as text']);
    expect(digestText(out.text)).toBe(raw);
  });

  it('reports an incomplete stream as a warning', () => {
    const out = build([{ type: 'system', subtype: 'init', session_id: 's' }], { incomplete: true });
    expect(out.warnings).toEqual(['agent output ended in the middle of a JSON value (killed or truncated)']);
    expect(out.sessionId).toBe('s');
  });

  it('text output keeps the raw text and no JSON facts', () => {
    const out = build([], { raw: 'plain words', looksLikeJson: false });
    expect(out.format).toBe('text');
    expect(digestText(out.text)).toBe('plain words');
  });

  it('ignores stream_event, user and unknown message types', () => {
    const out = build([
      { type: 'stream_event', event: { type: 'content_block_delta', delta: { text: 'x' } } },
      { type: 'user', message: { content: [{ type: 'tool_result', content: 'Error: from a tool' }] } },
      { type: 'mystery' },
      42,
      null,
    ]);
    expect(out.hasResult).toBe(false);
    expect(out.toolUseCount).toBe(0);
    expect(out.selfReport).toBeUndefined();
  });
});
