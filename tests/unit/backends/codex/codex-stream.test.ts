import { describe, expect, it } from 'vitest';
import { CodexStreamReader, readCodexStdout } from '../../../../src/backends/codex/codex-stream.js';
import { unwrapShell } from '../../../../src/backends/codex/codex-items.js';
import { fixture } from './codex-fixtures.js';

function readInPieces(text: string, size: number): ReturnType<CodexStreamReader['end']> {
  const reader = new CodexStreamReader();
  for (let i = 0; i < text.length; i += size) reader.write(text.slice(i, i + size));
  return reader.end();
}

describe('CodexStreamReader', () => {
  it('reads the same events whatever the chunks', () => {
    const text = fixture('success-tool-use.jsonl');
    const whole = readCodexStdout(text).output;
    for (const size of [1, 7, 64, 4096]) expect(readInPieces(text, size).output).toEqual(whole);
    expect(whole.events).toBe(7);
  });

  it('skips a broken line and a line that is no event, and reads on', () => {
    const text = [
      'npm notice: something',
      '{"type":"thread.started","thread_id":"t-1"}',
      '{"type":"item.completed","item":{"type":"agent_message","text":"cut',
      '{"type":"item.completed","item":{"type":"agent_message","text":"whole"}}',
      '{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":2}}',
      '',
    ].join('\n');
    const { output } = readCodexStdout(text);
    expect(output.threadId).toBe('t-1');
    expect(output.text.head).toBe('whole');
    expect(output.turnCompleted).toBe(true);
    expect(output.threadUsage).toEqual({ inputTokens: 6, cacheReadInputTokens: 4, cacheCreationInputTokens: 0, outputTokens: 2 });
    expect(output.warnings).toEqual([
      expect.stringContaining('1 line(s) of Codex output were not valid JSON'),
      expect.stringContaining('1 line(s) of Codex output that are not JSON'),
    ]);
  });

  it('a short answer is a digest too, its error lines found', () => {
    const line = JSON.stringify({
      type: 'item.completed',
      item: { id: 'i1', type: 'agent_message', text: 'Tried the build.\nError: build failed in src/a.ts' },
    });
    const { output } = readCodexStdout(`${line}\n`);
    expect(output.text.head).toBe('Tried the build.\nError: build failed in src/a.ts');
    expect(output.text.errorLines).toEqual(['Error: build failed in src/a.ts']);
  });

  it('keeps huge command output and answers as bounded digests', () => {
    const big = 'x'.repeat(3_000_000);
    const lines = [
      JSON.stringify({
        type: 'item.completed',
        item: { id: 'i1', type: 'command_execution', command: 'cat big', aggregated_output: big, exit_code: 0, status: 'completed' },
      }),
      JSON.stringify({ type: 'item.completed', item: { id: 'i2', type: 'agent_message', text: `${big}\nSTATUS: COMPLETE` } }),
      '',
    ].join('\n');
    const { output, chars } = readInPieces(lines, 65_536);
    expect(chars).toBe(lines.length);
    expect(output.text.length).toBe(big.length + 17);
    expect(output.text.truncated).toBe(true);
    expect(output.text.head.length + output.text.tail.length).toBeLessThan(400_000);
    expect(output.text.tail.endsWith('STATUS: COMPLETE')).toBe(true);
    expect(output.toolUses).toBe(1);
  });

  it('a command or patch Codex declined is a permission denial (an item status 0.169 never showed offline)', () => {
    const event = (id: string, item: Record<string, unknown>): string => JSON.stringify({ type: 'item.completed', item: { id, status: 'declined', ...item } });
    const text = [
      event('i1', { type: 'command_execution', command: "/bin/bash -lc 'rm -rf build'", aggregated_output: '', exit_code: null }),
      event('i2', { type: 'file_change', changes: [{ path: 'src/a.ts', kind: 'update' }] }),
      '',
    ].join('\n');
    expect(readCodexStdout(text).output.permissionDenials).toEqual([
      { tool: 'Shell', detail: 'rm -rf build' },
      { tool: 'Edit', detail: 'src/a.ts' },
    ]);
  });

  it('output with no events at all is text', () => {
    const stream = readCodexStdout('Error: unknown option --json\n');
    expect(stream.output.events).toBe(0);
    expect(stream.raw.head).toBe('Error: unknown option --json\n');
  });
});

describe('unwrapShell', () => {
  it.each([
    ["/bin/bash -lc 'npm test'", 'npm test'],
    ["bash -c 'echo '\\''hi'\\'''", "echo 'hi'"],
    ['/bin/bash -c "printf \\"a\\\\n\\" > f"', 'printf "a\\n" > f'],
    ['npm test', 'npm test'],
  ])('%s reads as %s', (shown, command) => expect(unwrapShell(shown)).toBe(command));
});
