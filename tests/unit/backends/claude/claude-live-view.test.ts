import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createClaudeProgressReader } from '../../../../src/backends/claude/claude-progress.js';
import { createLiveRenderer, type LiveRendererOptions } from '../../../../src/ui/live-renderer.js';

const FIXTURES = 'tests/fixtures/claude-cli';

/** What --live shows for Claude's output: its events read as progress, then rendered. */
function claudeLiveView(options: LiveRendererOptions): { push(event: unknown): string } {
  const reader = createClaudeProgressReader();
  const renderer = createLiveRenderer(options);
  return {
    push: (event) =>
      reader
        .read(event)
        .map((progress) => renderer.push(progress))
        .join(''),
  };
}

/** Replays a recorded stream line by line, as the loop would feed parsed events. */
function replay(file: string, showToolArgs: boolean): { text: string; pushes: string[] } {
  const renderer = claudeLiveView({ showToolArgs });
  const pushes = readFileSync(`${FIXTURES}/${file}`, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => renderer.push(JSON.parse(l)));
  return { text: pushes.join(''), pushes };
}

const STATUS_BLOCK = [
  '---RALPH_STATUS---',
  'STATUS: IN_PROGRESS',
  'TASKS_COMPLETED_THIS_LOOP: 1',
  'FILES_MODIFIED: 1',
  'TESTS_STATUS: NOT_RUN',
  'WORK_TYPE: IMPLEMENTATION',
  'EXIT_SIGNAL: false',
  'RECOMMENDATION: Continue with the next task',
  '---END_RALPH_STATUS---',
].join('\n');

describe('live renderer on recorded stream-json', () => {
  it('stream-json-success: text blocks, tool calls with arguments, the result line', () => {
    expect(replay('stream-json-success.jsonl', true).text).toBe(
      [
        "I'll create the file first.",
        '⚡ [Write] /tmp/claude-cli-fixtures/stream-json-success/repo/hello.txt',
        '⚡ [Bash] git status --short',
        'Created hello.txt and checked git status.',
        '',
        STATUS_BLOCK,
        '✅ Done · 3 turns · $0.0313 · 0.4s',
        '',
      ].join('\n'),
    );
  });

  it('hides tool arguments unless asked', () => {
    const text = replay('stream-json-success.jsonl', false).text;
    expect(text).toContain('⚡ [Write]\n');
    expect(text).toContain('⚡ [Bash]\n');
    expect(text).not.toContain('git status --short');
  });

  it('stream-json-partial-messages: deltas print as they arrive and text is not printed twice', () => {
    const { text, pushes } = replay('stream-json-partial-messages.jsonl', true);
    expect(text).toBe(
      [
        "I'll create the file first.",
        '⚡ [Write] /tmp/claude-cli-fixtures/stream-json-partial-messages/repo/hello.txt',
        '⚡ [Bash] git status --short',
        'Created hello.txt and checked git status.',
        '',
        STATUS_BLOCK,
        '✅ Done · 3 turns · $0.0314 · 0.3s',
        '',
      ].join('\n'),
    );
    // The final answer streamed in six deltas: six pushes carry pieces of it.
    const deltaPushes = pushes.filter((p) => p !== '' && !p.startsWith('⚡') && !p.startsWith('✅') && p !== '\n');
    expect(deltaPushes.length).toBeGreaterThanOrEqual(7);
    expect(text.match(/I'll create the file first\./g)).toHaveLength(1);
  });

  it('stream-json-rate-limit-retried-success: API retries before the answer', () => {
    const text = replay('stream-json-rate-limit-retried-success.jsonl', true).text;
    expect(text.startsWith('⏳ API retry 1/10 — rate_limit (429), next attempt in 1.0s\n⏳ API retry 2/10 — rate_limit (429)')).toBe(true);
    expect(text).toContain('Created hello.txt after waiting out a rate limit.');
    expect(text).toMatch(/✅ Done · 3 turns · \$0\.0307 · 2\.5s\n$/);
  });

  it('stream-json-error-rate-limit: the synthetic error message once, then the failed result', () => {
    const text = replay('stream-json-error-rate-limit.jsonl', true).text;
    expect(text.match(/API Error: Request rejected \(429\)/g)).toHaveLength(1);
    expect(text).toMatch(/❌ Error \(API 429\) · 1 turn · \$0\.0000 · 2\.3s\n$/);
  });

  it('stream-json-error-usage-limit: the rejected rate-limit event with its reset time', () => {
    const text = replay('stream-json-error-usage-limit.jsonl', true).text;
    expect(text).toContain('⛔ Usage limit reached (five_hour) — resets 2026-11-22T14:39:05Z\n');
    expect(text).toContain("You've hit your session limit · resets 2:39pm (UTC)\n");
    expect(text).toMatch(/❌ Error \(API 429\)/);
  });

  it('stream-json-interrupted-sigint: the error_during_execution result', () => {
    const text = replay('stream-json-interrupted-sigint.jsonl', true).text;
    expect(text).toContain('⚡ [Write] /tmp/claude-cli-fixtures/stream-json-interrupted-sigint/repo/partial.txt\n');
    expect(text).toMatch(/❌ error_during_execution: \[ede_diagnostic\].* · 3 turns · \$0\.0100 · 3\.4s\n$/);
  });

  it.each(['stream-json-killed-sigterm.jsonl', 'stream-json-killed-sigkill.jsonl'])('%s: what arrived before the kill, no result line', (file) => {
    const text = replay(file, true).text;
    expect(text).toMatch(/^Writing the file\.\n⚡ \[Write\] .*partial\.txt\n$/);
    expect(text).not.toMatch(/✅|❌/);
  });
});

describe('live renderer on --output-format json', () => {
  it('shows the answer of a lone result object once, then the result line', () => {
    const renderer = claudeLiveView({ showToolArgs: false });
    const text = renderer.push(JSON.parse(readFileSync(`${FIXTURES}/json-success-tool-use.json`, 'utf8')));
    expect(text).toBe(`Created hello.txt and checked git status.\n\n${STATUS_BLOCK}\n✅ Done · 3 turns · $0.0313 · 0.4s\n`);
  });

  it('does not repeat the answer of an error result', () => {
    const renderer = claudeLiveView({ showToolArgs: false });
    const text = renderer.push(JSON.parse(readFileSync(`${FIXTURES}/json-error-rate-limit.json`, 'utf8')));
    expect(text.split('\n').filter(Boolean)).toHaveLength(1);
    expect(text).toMatch(/^❌ Error \(API 429\): API Error: Request rejected/);
  });
});

describe('live renderer on other events', () => {
  const render = (events: unknown[], showToolArgs = true): string => {
    const r = claudeLiveView({ showToolArgs });
    return events.map((e) => r.push(e)).join('');
  };
  const toolUse = (name: string, input: unknown) => ({ type: 'assistant', message: { id: 'm1', content: [{ type: 'tool_use', name, input }] } });

  it('sub-agent starts and progress', () => {
    expect(render([{ type: 'system', subtype: 'task_started', task_id: 't1', description: 'Explore the test suite' }])).toBe(
      '🚀 Agent: Explore the test suite\n',
    );
    expect(render([{ type: 'system', subtype: 'task_progress', description: 'Reading files' }])).toBe('📌 Reading files\n');
  });

  it('a started task is named by the tool that started it, not always "Agent"', () => {
    const bash = {
      type: 'assistant',
      message: { id: 'm1', content: [{ type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'sleep 600', description: 'long job' } }] },
    };
    const started = { type: 'system', subtype: 'task_started', task_id: 't1', tool_use_id: 'tu1', description: 'long job', task_type: 'local_bash' };
    expect(render([bash, started], false)).toBe('⚡ [Bash]\n🚀 Bash: long job\n');
    expect(render([{ ...started, tool_use_id: 'unknown' }])).toBe('🚀 Bash: long job\n');
    expect(render([{ type: 'system', subtype: 'task_started', description: 'Explore', task_type: 'local_agent' }])).toBe('🚀 Agent: Explore\n');
    expect(render([{ type: 'system', subtype: 'task_started', description: 'watch', task_type: 'remote_monitor' }])).toBe('🚀 remote_monitor: watch\n');
  });

  it.each([
    ['Read', { file_path: '/src/a.ts' }, '⚡ [Read] /src/a.ts'],
    ['Edit', { file_path: '/src/b.ts', old_string: 'x' }, '⚡ [Edit] /src/b.ts'],
    ['Glob', { pattern: '**/*.ts' }, '⚡ [Glob] **/*.ts'],
    ['Grep', { pattern: 'TODO', path: 'src' }, '⚡ [Grep] TODO'],
    ['Agent', { description: 'Review the diff', prompt: 'long…' }, '⚡ [Agent] Review the diff'],
    ['Task', { description: 'Run checks' }, '⚡ [Task] Run checks'],
    ['Bash', { command: 'npm test\nnpm run lint' }, '⚡ [Bash] npm test'],
    ['mcp__github__list', { owner: 'x' }, '⚡ [mcp__github__list]'],
  ])('%s shows its main argument', (name, input, expected) => {
    expect(render([toolUse(name, input)])).toBe(`${expected}\n`);
  });

  it('cuts a long argument to 120 characters', () => {
    const out = render([toolUse('Bash', { command: `echo ${'y'.repeat(300)}` })]);
    expect(out).toBe(`⚡ [Bash] echo ${'y'.repeat(115)}…\n`);
  });

  it('puts a tool line on its own line after streamed text without a newline', () => {
    const out = render([
      { type: 'stream_event', event: { type: 'message_start', message: { id: 'm9' } } },
      { type: 'stream_event', event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'half a sentence' } } },
      toolUse('Bash', { command: 'ls' }),
    ]);
    expect(out).toBe('half a sentence\n⚡ [Bash] ls\n');
  });

  it('removes terminal escape sequences from model text', () => {
    const out = render([{ type: 'assistant', message: { id: 'm2', content: [{ type: 'text', text: 'clear\u001b[2J me\u0007' }] } }]);
    expect(out).toBe('clear me\n');
  });

  it('prints nothing for unknown, malformed or silent events', () => {
    expect(
      render([
        null,
        42,
        'text',
        [],
        {},
        { type: 'user', message: {} },
        { type: 'system', subtype: 'init' },
        { type: 'stream_event' },
        { type: 'rate_limit_event', rate_limit_info: { status: 'allowed' } },
      ]),
    ).toBe('');
  });

  it('describes error results with their subtype and first error', () => {
    expect(render([{ type: 'result', subtype: 'error_max_turns', is_error: true, num_turns: 1, errors: ['Reached maximum number of turns (1)'] }])).toBe(
      '❌ error_max_turns: Reached maximum number of turns (1) · 1 turn\n',
    );
  });
});
