import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeProgressReader } from '../../../../src/backends/claude/claude-progress.js';
import { OutputScanner, classifyLineStart, scanOutput } from '../../../../src/backends/claude/output-scanner.js';
import { DIGEST_HEAD_CHARS, DIGEST_TAIL_CHARS, digestText } from '../../../../src/core/text-digest.js';
import type { ClaudeOutput } from '../../../../src/backends/claude/claude-output.js';
import { FIXTURE_DIRS, FIXTURE_ROOT, chunked, expectedFromFile, fixture, loadFixtures, loadManifest } from './claude-fixtures.js';
import { sweepSize } from '../../../helpers/sweep-size.js';

function scanChunks(text: string, size: number): ClaudeOutput {
  const scanner = new OutputScanner();
  for (const chunk of chunked(text, size)) scanner.write(chunk);
  return scanner.end();
}

const FIXTURES = loadFixtures();

describe('recorded Claude CLI fixtures', () => {
  it.each(FIXTURE_DIRS.map((d) => [d || '.']))('the manifest of %s lists every output file', (dir) => {
    const listed = loadManifest(dir === '.' ? '' : dir).map((c) => c.file);
    const files = readdirSync(join(FIXTURE_ROOT, dir === '.' ? '' : dir)).filter(
      (f) => /\.(json|jsonl|txt)$/.test(f) && f !== 'manifest.json' && !f.endsWith('.stderr.txt'),
    );
    expect(listed.sort()).toEqual(files.sort());
    // The 34 situations recorded with both versions; 2.1.330 also a usage limit that names no reset.
    expect(listed).toHaveLength(dir === 'v2.1.330' ? 35 : 34);
  });

  describe.each(FIXTURES.map((f) => [f.name, f] as const))('%s', (_name, f) => {
    const expected = expectedFromFile(f.stdout);
    const out = scanOutput(f.stdout);

    it('is read in the right format', () => {
      expect(out.format).toBe(expected.format);
      expect(out.chars).toBe(f.stdout.length);
      expect(out.hasResult).toBe(expected.hasResult);
    });

    it('carries the session id, cost, turns and tokens of the file', () => {
      expect(out.sessionId).toBe(expected.sessionId);
      expect(out.costUsd).toBe(expected.costUsd);
      expect(out.numTurns).toBe(expected.numTurns);
      expect(out.usage?.inputTokens).toBe(expected.inputTokens);
      expect(out.usage?.outputTokens).toBe(expected.outputTokens);
    });

    it('carries is_error, subtype, api_error_status and errors[]', () => {
      expect(out.isError).toBe(expected.isError);
      expect(out.subtype).toBe(expected.subtype);
      expect(out.apiErrorStatus).toBe(expected.apiErrorStatus);
      expect(out.errors).toEqual(expected.errors);
    });

    it('carries permission denials, rate-limit event, API retries and tool use', () => {
      expect(out.permissionDenials).toEqual(expected.permissionDenials);
      expect(out.rateLimit).toEqual(expected.rateLimit);
      expect(out.apiRetries).toBe(expected.apiRetries);
      expect(out.toolUseCount).toBe(expected.toolUseCount);
      expect(out.lastToolUse?.name).toBe(expected.lastToolName);
    });

    it('keeps the final message as the text to analyze', () => {
      expect(digestText(out.text)).toBe(expected.text);
      if (expected.hasResult || expected.format === 'empty' || expected.format === 'text') expect(out.warnings).toEqual([]);
    });

    it.each(sweepSize([7], [1, 7, 4096]))('gives the same digest when fed in chunks of %i characters', (size) => {
      expect(scanChunks(f.stdout, size)).toEqual(out);
    });
  });
});

describe('recorded fixtures: facts checked by hand against README.md', () => {
  it.each([
    ['json-success-tool-use.json', 'json', true, false],
    ['json-verbose-success.json', 'json-array', true, false],
    ['stream-json-success.jsonl', 'stream-json', true, false],
    ['text-success.txt', 'text', false, undefined],
    ['json-killed-sigterm.json', 'empty', false, undefined],
    ['json-error-resume-not-found.json', 'empty', false, undefined],
  ] as const)('%s reads as %s', (name, format, hasSession, isError) => {
    const out = scanOutput(fixture(name).stdout);
    expect(out.format).toBe(format);
    expect(out.sessionId !== undefined).toBe(hasSession);
    expect(out.isError).toBe(isError);
  });

  it('json-resume-second keeps the session id of json-resume-first', () => {
    const first = scanOutput(fixture('json-resume-first.json').stdout);
    const second = scanOutput(fixture('json-resume-second.json').stdout);
    expect(first.sessionId).toBe('20cd9689-d85c-4306-902a-6815713bd90e');
    expect(second.sessionId).toBe(first.sessionId);
  });

  it('json-permission-denied: the denied Bash call is npm test', () => {
    for (const name of ['json-permission-denied.json', 'v2.1.330/json-permission-denied.json']) {
      const out = scanOutput(fixture(name).stdout);
      expect(out.permissionDenials).toEqual([{ tool: 'Bash', detail: 'npm test' }]);
      expect(out.isError).toBe(false);
      expect(out.subtype).toBe('success');
    }
  });

  it('stream-json-error-usage-limit: the rate_limit_event says rejected, five_hour, resetsAt in epoch seconds', () => {
    const out = scanOutput(fixture('stream-json-error-usage-limit.jsonl').stdout);
    expect(out.rateLimit).toEqual({ status: 'rejected', resetsAt: 1795358345, type: 'five_hour' });
    expect(out.apiErrorStatus).toBe(429);
    expect(out.streamError).toBeDefined();
    expect(digestText(out.text)).toBe("You've hit your session limit · resets 2:39pm (UTC)");
  });

  it('v2.1.330 json-error-usage-limit: api_error usage_limit_reached and api_error_type are read', () => {
    const out = scanOutput(fixture('v2.1.330/json-error-usage-limit.json').stdout);
    expect(out.apiError).toBe('usage_limit_reached');
    expect(out.apiErrorType).toBe('rate_limit_error');
    expect(out.terminalReason).toBe('api_error');
  });

  it('stream-json-rate-limit-retried-success: two api_retry events, then success', () => {
    const out = scanOutput(fixture('stream-json-rate-limit-retried-success.jsonl').stdout);
    expect(out.apiRetries).toBe(2);
    expect(out.isError).toBe(false);
  });

  it('json-max-turns: no result text, errors[] instead', () => {
    const out = scanOutput(fixture('json-max-turns.json').stdout);
    expect(out.subtype).toBe('error_max_turns');
    expect(out.isError).toBe(true);
    expect(out.errors.length).toBeGreaterThan(0);
    expect(out.text.length).toBe(0);
  });

  it('json-interrupted-sigint: error_during_execution with terminal_reason aborted_streaming', () => {
    const out = scanOutput(fixture('json-interrupted-sigint.json').stdout);
    expect(out.subtype).toBe('error_during_execution');
    expect(out.terminalReason).toBe('aborted_streaming');
    expect(out.isError).toBe(true);
  });

  it('stream-json-killed-sigterm: no result line; the last assistant text and the init session id are used', () => {
    for (const name of ['stream-json-killed-sigterm.jsonl', 'stream-json-killed-sigkill.jsonl']) {
      const out = scanOutput(fixture(name).stdout);
      expect(out.hasResult).toBe(false);
      expect(out.format).toBe('stream-json');
      expect(digestText(out.text)).toBe('Writing the file.');
      expect(out.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(out.lastToolUse?.name).toBe('Write');
      expect(out.lastToolUse?.argument).toMatch(/partial\.txt$/);
    }
  });

  // Regression: earlier, a stream killed at a line boundary (the recorded SIGTERM/SIGKILL cases: init, assistant,
  // tool result, and no result line) carries no warning at all, so the loop cannot say that the
  // answer is incomplete; the brief and U§3.4 step 10 treat "no result line" as a truncated stream
  // that must be reported, whether or not the cut fell inside a JSON value.
  it('a stream-json output without a result line warns that it is incomplete', () => {
    for (const name of ['stream-json-killed-sigterm.jsonl', 'v2.1.330/stream-json-killed-sigkill.jsonl']) {
      const out = scanOutput(fixture(name).stdout);
      expect(out.warnings.some((w) => /incomplete|truncated|killed|no result/i.test(w))).toBe(true);
    }
  });

  it('json-success-tool-use: the model comes from modelUsage', () => {
    expect(scanOutput(fixture('json-success-tool-use.json').stdout).model).toBe('claude-opus-4-8[1m]');
  });

  it('stream-json-success: the last tool use is the Bash git status call', () => {
    const out = scanOutput(fixture('stream-json-success.jsonl').stdout);
    expect(out.lastToolUse).toEqual({ name: 'Bash', argument: 'git status --short' });
    expect(out.toolUseCount).toBe(2);
  });
});

describe('OutputScanner: shapes', () => {
  const RESULT = {
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: 'Did it.\nEXIT_SIGNAL: false',
    session_id: 'sess-1',
    total_cost_usd: 0.5,
    num_turns: 2,
  };

  it('reads a pretty-printed multi-line JSON object', () => {
    const out = scanOutput(JSON.stringify(RESULT, null, 2));
    expect(out.format).toBe('json');
    expect(out.hasResult).toBe(true);
    expect(out.sessionId).toBe('sess-1');
    expect(out.costUsd).toBe(0.5);
    expect(digestText(out.text)).toBe(RESULT.result);
  });

  it('reads JSONL with the result as the last line', () => {
    const lines = [
      { type: 'system', subtype: 'init', session_id: 'init-id', model: 'm' },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'working' }] } },
      RESULT,
    ];
    const out = scanOutput(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(out.format).toBe('stream-json');
    expect(out.sessionId).toBe('sess-1');
    expect(digestText(out.text)).toBe(RESULT.result);
  });

  it('reads a JSON array and takes the session id from init when the result has none', () => {
    const { session_id: _omit, ...withoutSession } = RESULT;
    const out = scanOutput(JSON.stringify([{ type: 'system', subtype: 'init', session_id: 'from-init' }, withoutSession]));
    expect(out.format).toBe('json-array');
    expect(out.sessionId).toBe('from-init');
  });

  it('reads an empty array without a result', () => {
    const out = scanOutput('[]');
    expect(out.format).toBe('json-array');
    expect(out.hasResult).toBe(false);
    expect(out.warnings).toEqual(['agent output has no result (the agent was stopped before it finished)']);
  });

  it('reads plain text as text', () => {
    const out = scanOutput('All done.\nError: one thing failed\n');
    expect(out.format).toBe('text');
    expect(digestText(out.text)).toBe('All done.\nError: one thing failed\n');
    expect(out.text.errorLines).toEqual(['Error: one thing failed']);
  });

  it.each([
    ['empty', ''],
    ['whitespace only', '  \n\t\r\n  '],
  ])('%s output is empty', (_name, text) => {
    const out = scanOutput(text);
    expect(out.format).toBe('empty');
    expect(out.hasResult).toBe(false);
  });

  describe("a non-JSON line before (or between) Claude's JSON", () => {
    const answer = 'Done for now.\n---RALPH_STATUS---\nSTATUS: IN_PROGRESS\nEXIT_SIGNAL: false\n---END_RALPH_STATUS---';
    const result = JSON.stringify({ ...RESULT, result: answer });

    it.each([1, 3, 7, 64, 100_000])('finds the result object after a wrapper notice (chunks of %i)', (size) => {
      const out = scanChunks(`Notice: using proxy settings from ~/.npmrc\n${result}\n`, size);
      expect(out.format).toBe('json');
      expect(out.hasResult).toBe(true);
      expect(digestText(out.text)).toBe(answer);
      expect(out.warnings).toContain('1 line(s) of agent output that are not JSON were skipped');
    });

    it('skips notices between stream-json events and after the result', () => {
      const stream = fixture('stream-json-success.jsonl').stdout;
      const [init, ...rest] = stream.split('\n');
      const noisy = `welcome to zsh\n${init}\n[wrapper] still running\n${rest.join('\n')}\nbye\n`;
      const clean = scanOutput(stream);
      const out = scanOutput(noisy);
      expect(out.format).toBe('stream-json');
      expect(out.hasResult).toBe(true);
      expect(out.sessionId).toBe(clean.sessionId);
      expect(digestText(out.text)).toBe(digestText(clean.text));
      expect(out.toolUseCount).toBe(clean.toolUseCount);
    });

    it('text that merely contains a JSON-looking line is still text', () => {
      const text = 'I changed the config to:\n{"debug": true}\nAll tasks complete.\n';
      const out = scanOutput(text);
      expect(out.format).toBe('text');
      expect(out.hasResult).toBe(false);
      expect(digestText(out.text)).toBe(text);
    });

    it.each([
      ['{"a":1}', true, 'json'],
      ['[{"type":"system"}]', true, 'json'],
      ['[ "x" ]', true, 'json'],
      ['[]', true, 'json'],
      ['[-1]', true, 'json'],
      ['[null]', true, 'json'],
      ['[wrapper] starting', true, 'noise'],
      ['[INFO] proxy', false, 'noise'],
      ['[', false, 'undecided'],
      ['[\n', true, 'undecided'],
      ['[nu', false, 'undecided'],
      ['Notice: x', false, 'noise'],
    ] as const)('line start %j (line ended: %s) is %s', (text, ended, verdict) => {
      expect(classifyLineStart(text, ended)).toBe(verdict);
    });

    it('a pretty-printed array after a notice is still JSON', () => {
      const out = scanChunks(`notice\n[\n  ${result}\n]\n`, 5);
      expect(out.format).toBe('json-array');
      expect(out.hasResult).toBe(true);
    });

    it('a long notice line is skipped whole, even split across chunks', () => {
      const out = scanChunks(`${'x'.repeat(200_000)}\n${result}`, 4096);
      expect(out.hasResult).toBe(true);
      expect(digestText(out.text)).toBe(answer);
    });
  });

  it('JSON after leading blank lines is still JSON', () => {
    const out = scanOutput(`\n\n  ${JSON.stringify(RESULT)}`);
    expect(out.format).toBe('json');
    expect(out.hasResult).toBe(true);
  });

  it('malformed JSON gives a warning and falls back to the raw text', () => {
    const text = '{"type":"result","result":"---RALPH_STATUS---\\nEXIT_SIGNAL: true", oops}';
    const out = scanOutput(text);
    expect(out.format).toBe('text');
    expect(out.hasResult).toBe(false);
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings[0]).toContain('not valid JSON');
    expect(out.warnings[0]).toContain('analyzed as text');
    expect(digestText(out.text)).toBe(text);
  });

  it('a stream cut in the middle of a line warns that it is incomplete and keeps what it read', () => {
    const f = fixture('stream-json-success.jsonl').stdout;
    const resultAt = f.indexOf('{"type":"result"');
    const cut = f.slice(0, resultAt + 40);
    const out = scanOutput(cut);
    expect(out.hasResult).toBe(false);
    expect(out.warnings).toEqual(['agent output ended in the middle of a JSON value (killed or truncated)']);
    expect(out.sessionId).toBe(expectedFromFile(f).sessionId);
    expect(digestText(out.text).length).toBeGreaterThan(0);
    expect(out.lastToolUse?.name).toBe('Bash');
  });

  it('a result far longer than head and tail (10 MB under npm run fuzz) keeps them bounded and finds error lines in the middle', () => {
    // Short lines: one JSON escape every 50 characters, as in a test runner's output.
    const filler = `${'lorem ipsum dolor sit amet, consectetur adipiscing'}\n`.repeat(sweepSize(10_000, 100_000));
    const result = `${filler}Error: hidden in the middle\n${filler}\n---RALPH_STATUS---\nEXIT_SIGNAL: false\n---END_RALPH_STATUS---`;
    const json = JSON.stringify({ type: 'result', is_error: false, result, session_id: 'big' });
    expect(json.length).toBeGreaterThan(3 * (DIGEST_HEAD_CHARS + DIGEST_TAIL_CHARS));
    const out = scanChunks(json, 65_536);
    expect(out.hasResult).toBe(true);
    expect(out.sessionId).toBe('big');
    expect(out.text.length).toBe(result.length);
    expect(out.text.head.length).toBe(DIGEST_HEAD_CHARS);
    expect(out.text.tail.length).toBe(DIGEST_TAIL_CHARS);
    expect(out.text.tail.endsWith('---END_RALPH_STATUS---')).toBe(true);
    expect(out.text.errorLines).toEqual(['Error: hidden in the middle']);
  });

  it('"__proto__" keys in agent output do not pollute prototypes or fake fields', () => {
    const out = scanOutput(
      '{"type":"result","__proto__":{"is_error":true,"session_id":"evil"},"result":"ok","permission_denials":[{"__proto__":{"tool_name":"Bash"}}]}',
    );
    expect(out.isError).toBeUndefined();
    expect(out.sessionId).toBeUndefined();
    expect(out.permissionDenials).toEqual([{ tool: 'unknown' }]);
    expect(({} as { is_error?: unknown }).is_error).toBeUndefined();
    expect(({} as { tool_name?: unknown }).tool_name).toBeUndefined();
  });

  it('treats every field as untrusted: wrong types are ignored', () => {
    const out = scanOutput(
      JSON.stringify({
        type: 'result',
        is_error: 'yes',
        session_id: 42,
        total_cost_usd: '0.5',
        num_turns: null,
        permission_denials: 'none',
        usage: [1],
        errors: [{ code: 1 }, 'plain'],
      }),
    );
    expect(out.hasResult).toBe(true);
    expect(out.isError).toBeUndefined();
    expect(out.sessionId).toBeUndefined();
    expect(out.costUsd).toBeUndefined();
    expect(out.numTurns).toBeUndefined();
    expect(out.permissionDenials).toEqual([]);
    expect(out.usage).toBeUndefined();
    expect(out.errors).toEqual(['{"code":1}', 'plain']);
  });

  it('passes every parsed top-level value to the event callback', () => {
    const events: unknown[] = [];
    const scanner = new OutputScanner((e) => events.push(e));
    scanner.write('{"type":"system","subtype":"init"}\n{"type":"res');
    scanner.write('ult"}\n');
    scanner.end();
    expect(events).toEqual([{ type: 'system', subtype: 'init' }, { type: 'result' }]);
  });
});

describe('OutputScanner: events nobody reads', () => {
  const toolResult = JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', content: `Error: x\n${'ok\n'.repeat(500)}` }] } });
  const toolInput = JSON.stringify({
    type: 'stream_event',
    event: { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{"command":"ls"' } },
  });
  const kept = [
    { type: 'system', subtype: 'init', session_id: 's1' },
    { type: 'stream_event', event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } } },
    { type: 'assistant', message: { id: 'm', content: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls' } }] } },
    { type: 'result', subtype: 'success', is_error: false, result: 'done', session_id: 's1' },
  ];
  const stream = `${[kept[0], kept[1]].map((e) => JSON.stringify(e)).join('\n')}\n${toolInput}\n${JSON.stringify(kept[2])}\n${toolResult}\n${JSON.stringify(kept[3])}\n`;

  it('tool results and tool input pieces are counted, not handed on; every other event is, as it was', () => {
    const scan = (text: string): { out: ClaudeOutput; events: unknown[] } => {
      const events: unknown[] = [];
      const scanner = new OutputScanner((e) => events.push(e));
      scanner.write(text);
      return { out: scanner.end(), events };
    };
    const all = scan(stream);
    const others = scan(`${kept.map((e) => JSON.stringify(e)).join('\n')}\n`);
    expect(all.events).toHaveLength(6);
    expect(all.events.filter((e) => e !== undefined)).toEqual(others.events);
    expect(all.out).toEqual({ ...others.out, chars: stream.length, text: all.out.text });
    expect(digestText(all.out.text)).toBe('done');
    expect(all.out.warnings).toEqual([]);
  });

  it('gives the same digest and progress on every recorded stream, whatever the chunk size', () => {
    for (const name of readdirSync(FIXTURE_ROOT).filter((n) => n.startsWith('stream-json-'))) {
      const text = fixture(name).stdout;
      const parsedEvery = text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as unknown);
      const reader = createClaudeProgressReader();
      const expected = parsedEvery.flatMap((e) => reader.read(e));
      for (const size of [text.length, 97]) {
        const progress = createClaudeProgressReader();
        const seen: unknown[] = [];
        const scanner = new OutputScanner((e) => seen.push(...progress.read(e)));
        for (const piece of chunked(text, size)) scanner.write(piece);
        expect(scanner.end()).toEqual(scanOutput(text));
        expect(seen).toEqual(expected);
      }
    }
  });
});

describe('OutputScanner: the flat Ralph JSON format (U§4.2 shape 1)', () => {
  it('reads every field of the flat format', () => {
    const out = scanOutput(
      JSON.stringify({
        status: 'COMPLETE',
        exit_signal: true,
        work_type: 'TEST_ONLY',
        files_modified: 3,
        error_count: 1,
        summary: 'All tests pass',
        confidence: 95,
        loop_number: 4,
        session_id: 'flat-1',
      }),
    );
    expect(out.format).toBe('json');
    expect(out.hasResult).toBe(false);
    expect(out.selfReport).toEqual({
      status: 'COMPLETE',
      exitSignal: true,
      workType: 'TEST_ONLY',
      filesModified: 3,
      errorCount: 1,
      confidence: 95,
      summary: 'All tests pass',
    });
    expect(digestText(out.text)).toBe('All tests pass');
    expect(out.sessionId).toBe('flat-1');
  });

  it('reads the CLI object with metadata (files_changed, has_errors, completion_status, progress_indicators, usage)', () => {
    const out = scanOutput(
      JSON.stringify({
        type: 'result',
        result: 'Implemented the parser',
        sessionId: 'camel-id',
        metadata: {
          files_changed: 2,
          has_errors: true,
          completion_status: 'complete',
          progress_indicators: ['a', 'b', 'c'],
          session_id: 'meta-id',
          usage: { input_tokens: 10, output_tokens: 5 },
        },
      }),
    );
    expect(out.sessionId).toBe('camel-id');
    expect(out.selfReport).toMatchObject({ filesModified: 2, hasErrors: true, completionStatus: 'complete', progressIndicators: 3 });
    expect(out.usage).toEqual({ inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 });
  });

  it('a JSON object that is neither a result nor the flat format is not usable and falls back to nothing', () => {
    const out = scanOutput('{"hello":"world"}');
    expect(out.format).toBe('json');
    expect(out.hasResult).toBe(false);
    expect(out.selfReport).toBeUndefined();
  });
});
