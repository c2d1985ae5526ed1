import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CodexRun } from '../../../../src/backends/codex/classify-codex-call.js';
import { codexCli } from '../../../../src/backends/codex/codex-backend.js';
import { sessionWindowsReader, windowsInSessionTail, type SessionWindowsReader } from '../../../../src/backends/codex/codex-session-windows.js';
import { readCodexStdout } from '../../../../src/backends/codex/codex-stream.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const THREAD = '01a22374-01d3-7771-8baa-d495dfb3ce3a';
const AT = '2026-11-28T18:38:55.179Z';
const SINCE = Date.parse('2026-11-28T18:38:50Z');

/** The token_count line of Codex 0.169.0's session file, as it wrote it against the fake API. */
function tokenCount(timestamp: string, primaryUsed: number): string {
  return JSON.stringify({
    timestamp,
    ordinal: 12,
    type: 'event_msg',
    payload: {
      type: 'token_count',
      info: { total_token_usage: { input_tokens: 1200 } },
      rate_limits: {
        limit_id: 'codex',
        primary: { used_percent: primaryUsed, window_minutes: 300, resets_at: 1795894734 },
        secondary: { used_percent: 81.0, window_minutes: 10080, resets_at: null },
        credits: null,
      },
    },
  });
}

describe('windowsInSessionTail', () => {
  it('reads the last token_count of the call, naming each window by its length', () => {
    const text = [tokenCount(AT, 10), '{"type":"event_msg","payload":{"type":"task_complete"}}', tokenCount(AT, 42.5), '{"cut'].join('\n');
    expect(windowsInSessionTail(text, SINCE)).toEqual([
      { kind: 'five_hour', usedPercent: 42.5, resetsAt: 1795894734000 },
      { kind: 'seven_day', usedPercent: 81 },
    ]);
  });

  it('takes nothing from an earlier call of the thread, or from lines that are not token_count events', () => {
    expect(windowsInSessionTail(tokenCount('2026-11-28T18:00:00Z', 42.5), SINCE)).toEqual([]);
    expect(windowsInSessionTail(tokenCount('not a time', 42.5), SINCE)).toEqual([]);
    const other = JSON.stringify({ timestamp: AT, type: 'response_item', payload: { type: 'token_count', rate_limits: {} } });
    expect(windowsInSessionTail(`${other}\nnot json "rate_limits"\n`, SINCE)).toEqual([]);
  });
});

describe('sessionWindowsReader', () => {
  function home(files: Record<string, string>): string {
    const root = tempDir();
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  it("finds the thread's session file under sessions/YYYY/MM/DD, newest day first", () => {
    const root = home({
      [`sessions/2026/11/27/rollout-2026-11-27T10-00-00-${THREAD}.jsonl`]: tokenCount(AT, 99),
      [`sessions/2026/11/28/rollout-2026-11-28T18-38-54-${THREAD}.jsonl`]: `${tokenCount(AT, 42.5)}\n`,
      'sessions/2026/11/28/rollout-2026-11-28T18-38-54-00000000-0000-0000-0000-000000000000.jsonl': tokenCount(AT, 1),
    });
    expect(sessionWindowsReader(root)(THREAD, SINCE).map((w) => w.usedPercent)).toEqual([42.5, 81]);
  });

  it('reads nothing without a home, for an id that is not a UUID, a missing file, or a file behind a symlink', () => {
    const root = home({ [`elsewhere/rollout-x-${THREAD}.jsonl`]: tokenCount(AT, 42.5) });
    mkdirSync(join(root, 'sessions/2026/11/28'), { recursive: true });
    symlinkSync(join(root, `elsewhere/rollout-x-${THREAD}.jsonl`), join(root, `sessions/2026/11/28/rollout-x-${THREAD}.jsonl`));
    expect(sessionWindowsReader(root)(THREAD, SINCE)).toEqual([]);
    expect(sessionWindowsReader(undefined)(THREAD, SINCE)).toEqual([]);
    expect(sessionWindowsReader(root)('../../etc/passwd', SINCE)).toEqual([]);
    expect(sessionWindowsReader(tempDir())(THREAD, SINCE)).toEqual([]);
  });
  it('a session file found once and replaced by a link since is not read through it', () => {
    const file = `sessions/2026/11/28/rollout-x-${THREAD}.jsonl`;
    const root = home({ [file]: `${tokenCount(AT, 42.5)}\n`, [`elsewhere/rollout-x-${THREAD}.jsonl`]: `${tokenCount(AT, 99)}\n` });
    const read = sessionWindowsReader(root);
    expect(read(THREAD, SINCE).map((w) => w.usedPercent)).toEqual([42.5, 81]);
    renameSync(join(root, file), join(root, `${file}.old`));
    symlinkSync(join(root, `elsewhere/rollout-x-${THREAD}.jsonl`), join(root, file));
    expect(read(THREAD, SINCE)).toEqual([]);
  });
});

describe('the Codex backend reads the session file for windows its stdout did not carry', () => {
  const NOW = Date.parse('2026-11-28T18:39:00Z');
  function classify(stdout: string, reader: SessionWindowsReader) {
    const cli = codexCli({ settings: { command: ['codex'], model: 'gpt-5.1-codex', effort: '', extraArgs: [] }, sessionWindows: reader, now: () => NOW });
    const run: CodexRun = { end: 'exited', exitCode: 0, durationMs: 4000, output: readCodexStdout(stdout), stderrTail: '' };
    return cli.classify(run, { prompt: 'p', loopContext: '' } as Parameters<typeof cli.classify>[1]);
  }
  const lines = (...events: unknown[]): string => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
  const thread = { type: 'thread.started', thread_id: THREAD };
  const done = { type: 'turn.completed', usage: { input_tokens: 10, output_tokens: 1 } };

  it("asks for this call's windows (since the call started, with a second's slack) and names them", () => {
    const asked: Array<[string, number]> = [];
    const result = classify(lines(thread, done), (id, since) => {
      asked.push([id, since]);
      return [{ kind: 'five_hour', usedPercent: 85, resetsAt: NOW + 3_600_000 }];
    });
    expect(asked).toEqual([[THREAD, NOW - 4000 - 1000]]);
    expect(result.rateLimitWindows).toEqual([{ kind: 'five_hour', status: 'allowed', usedPercent: 85, resetsAt: NOW + 3_600_000 }]);
  });

  it('windows on stdout win, and a run without a thread id reads no file', () => {
    const never: SessionWindowsReader = () => {
      throw new Error('the session file was read');
    };
    const onStdout = { type: 'token_count', rate_limits: { primary: { used_percent: 10, window_minutes: 300, resets_at: 1795894734 } } };
    expect(classify(lines(thread, onStdout, done), never).rateLimitWindows).toEqual([
      { kind: 'five_hour', status: 'allowed', usedPercent: 10, resetsAt: 1795894734000 },
    ]);
    expect(classify(lines(done), never).rateLimitWindows).toBeUndefined();
  });
});
