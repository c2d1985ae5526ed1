import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildClaudeArgs } from '../../../../src/backends/claude/claude-args.js';
import { commandOnly } from '../../../../src/backends/cli-agent/argv.js';
import { claudeCli } from '../../../../src/backends/claude/claude-backend.js';
import { readClaudeStdout } from '../../support/read-stdout.js';
import type { AgentProgress } from '../../../../src/agent-result.js';
import type { AgentRequest } from '../../../../src/ports.js';

const RECORDED = readFileSync(join(import.meta.dirname, '..', '..', '..', 'fixtures', 'claude-cli', 'windows', 'rate-limit-event-warning.jsonl'), 'utf8');
const RESULT = JSON.stringify({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: 'Done.',
  session_id: 's1',
  usage: { input_tokens: 1, output_tokens: 1 },
});
const facts = { end: 'exited' as const, exitCode: 0, durationMs: 5, stderrTail: '' };
const read = (stdout: string) => readClaudeStdout(stdout, facts, 0, () => 'UTC');

describe("Claude's subscription windows", () => {
  it('reads each window of the real rate_limit_event: status, used percentage and reset', () => {
    const result = read(`${RECORDED}${RESULT}\n`);
    expect(result.rateLimitWindows).toEqual([
      { kind: 'five_hour', status: 'allowed', usedPercent: 20, resetsAt: 1795889875_000 },
      { kind: 'seven_day', status: 'warning', usedPercent: 81, resetsAt: 1795890875_000 },
    ]);
  });

  it('keeps the latest state of a window a later event reports again', () => {
    const later = JSON.stringify({ type: 'rate_limit_event', rate_limit_info: { status: 'allowed', resetsAt: 1795990875, rateLimitType: 'seven_day' } });
    expect(read(`${RECORDED}${later}\n${RESULT}\n`).rateLimitWindows).toEqual([
      { kind: 'five_hour', status: 'allowed', usedPercent: 20, resetsAt: 1795889875_000 },
      { kind: 'seven_day', status: 'allowed', resetsAt: 1795990875_000 },
    ]);
  });

  it('ignores what it cannot read: an unknown status, an odd window name, a missing info', () => {
    const odd = [
      { type: 'rate_limit_event', rate_limit_info: { status: 'maybe', rateLimitType: 'five_hour' } },
      { type: 'rate_limit_event', rate_limit_info: { status: 'allowed', rateLimitType: '../../etc' } },
      { type: 'rate_limit_event' },
    ];
    expect(read(`${odd.map((e) => JSON.stringify(e)).join('\n')}\n${RESULT}\n`).rateLimitWindows).toBeUndefined();
  });

  it('a json answer reports no windows', () => {
    expect(read(`${RESULT}\n`).rateLimitWindows).toBeUndefined();
  });
});

describe('stream-json for the windows alone', () => {
  const request = (live: boolean): AgentRequest => ({ loop: 1, cwd: '/p', prompt: 'p', loopContext: '', timeoutMs: 1000, outputLogPath: '', live });
  const cli = (readWindows: boolean) => claudeCli({ settings: commandOnly(['claude']), outputFormat: 'json', readWindows, allowedTools: [] });

  it('asks for stream-json without partial messages when a rule needs the windows, and json otherwise', () => {
    expect(cli(true).buildCall(request(false)).args.slice(0, 3)).toEqual(['--output-format', 'stream-json', '--verbose']);
    expect(cli(true).buildCall(request(false)).args).not.toContain('--include-partial-messages');
    expect(cli(true).buildCall(request(true)).args).toContain('--include-partial-messages');
    expect(cli(false).buildCall(request(false)).args.slice(0, 2)).toEqual(['--output-format', 'json']);
    expect(buildClaudeArgs(commandOnly(['claude']), { prompt: 'x' }, { format: 'stream-json', allowedTools: [] }).args).toContain('--include-partial-messages');
  });

  it('reports only the progress a json call gives, so the terminal shows the same', () => {
    const stream = [
      { type: 'system', subtype: 'init', session_id: 's1' },
      {
        type: 'assistant',
        message: {
          content: [
            { type: 'text', text: 'thinking aloud' },
            { type: 'tool_use', name: 'Bash', input: { command: 'ls' } },
          ],
        },
      },
    ];
    const seen = (readWindows: boolean, live: boolean): string[] => {
      const kinds: string[] = [];
      const reader = cli(readWindows).createReader((e: AgentProgress) => kinds.push(e.kind), request(live));
      reader.write(`${stream.map((e) => JSON.stringify(e)).join('\n')}\n${RECORDED}${RESULT}\n`);
      reader.end();
      return kinds;
    };
    expect(seen(true, false)).toEqual(['session_started', 'finished']);
    expect(seen(true, true)).toEqual(expect.arrayContaining(['message', 'tool_use']));
  });
});
