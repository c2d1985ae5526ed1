import { describe, expect, it } from 'vitest';
import type { AgentProgress } from '../../../src/agent-result.js';
import { createLiveView, lastNonBlankLine, type ShownEvent } from '../../../src/cli/loop/live-view.js';
import { createRunFilesProjector, type RunFiles } from '../../../src/cli/loop/run-files-projector.js';
import { createTerminalPresenter } from '../../../src/cli/loop/terminal-presenter.js';
import { NO_REDACTION, createRedactor, type Redactor } from '../../../src/core/secret-redactor.js';
import { localTimestamp } from '../../../src/core/time-format.js';
import type { LoopEvent } from '../../../src/engine/loop-events.js';
import { configWith, loopHarness } from '../engine/support/loop-harness.js';
import { createCallProgress } from '../../../src/ui/call-progress.js';
import { createMemoryLogger } from '../../../src/ui/logger.js';

const T0 = Date.parse('2026-03-02T10:00:00Z');
const SECRET = 'sk-live-0123456789abcdef';

/** The run files as they are written, in memory. */
function memoryFiles(): RunFiles & { progress: Array<Record<string, unknown>>; liveLog: string; ended: number } {
  const files = {
    progress: [] as Array<Record<string, unknown>>,
    liveLog: '',
    ended: 0,
    writeStatus: () => undefined,
    writeProgress: (p: Record<string, unknown>) => void files.progress.push(p),
    appendMetrics: () => undefined,
    resetLiveLog: (header: string) => void (files.liveLog = header),
    appendLiveLog: (text: string) => void (files.liveLog += text),
    endLiveLog: () => void (files.ended += 1),
  };
  return files;
}

/**
 * The engine's facts through the live view into the terminal presenter (with a spinner on a
 * terminal, or --live output) and the run files: what the person and the watchers see.
 */
function watch(events: readonly LoopEvent[], o: { live: boolean; tty?: boolean; redactor?: Redactor; showToolArgs?: boolean }) {
  const files = memoryFiles();
  const written: string[] = [];
  const write = (t: string | Uint8Array): void => void written.push(typeof t === 'string' ? t : Buffer.from(t).toString('utf8'));
  const shown: ShownEvent[] = [];
  const projector = createRunFilesProjector(files, { config: configWith(), project: '/p', backend: 'mock', pid: 1 }, () => T0);
  const presenter = createTerminalPresenter({
    logger: createMemoryLogger(),
    write,
    tty: o.tty ?? false,
    live: o.live,
    createCallProgress: (startedAt) => createCallProgress({ tty: o.tty ?? false, write, startedAt, agent: 'mock agent', columns: 200 }),
  });
  const view = createLiveView({ showToolArgs: o.showToolArgs ?? false, redactor: () => o.redactor ?? NO_REDACTION }, (e) => {
    shown.push(e);
    projector(e);
    presenter(e);
  });
  for (const event of events) view(event);
  return { files, terminal: written.join(''), shown };
}

const progress = (event: AgentProgress): LoopEvent => ({ type: 'call.progress', iteration: 1, event });
const tick = (ms: number): LoopEvent => ({ type: 'call.tick', iteration: 1, startedAt: T0, now: T0 + ms });

/** A call: a tool, a streamed sentence, two beats between them, and the end of the turn. */
const CALL: LoopEvent[] = [
  { type: 'call.running', iteration: 1, startedAt: T0 },
  progress({ kind: 'session_started', sessionId: 'sess-1' }),
  progress({ kind: 'tool_use', tool: 'Bash', argument: `npm test -- --grep "${'x'.repeat(80)}"\nsecond line` }),
  tick(1000),
  progress({ kind: 'text_delta', text: 'Tests pass. ' }),
  progress({ kind: 'text_delta', text: 'Now the docs.' }),
  tick(2000),
  progress({ kind: 'text_end' }),
  progress({
    kind: 'finished',
    isError: false,
    answer: 'Tests pass. Now the docs.',
    errorLabel: 'Error',
    reason: '',
    turns: 3,
    costUsd: 0.0123,
    durationMs: 2500,
  }),
  tick(3000),
  tick(4000),
  { type: 'call.end', iteration: 1 },
];

const SHOWN = '⚡ [Bash]\nTests pass. Now the docs.\n✅ Done · 3 turns · $0.0123 · 2.5s\n';
/** The tool as progress.json and the spinner name it: the first line of its argument, 60 characters of it. */
const TOOL = `Bash: npm test -- --grep "${'x'.repeat(40)}`;

describe('the live view: facts in, the same text, live.log and progress.json out', () => {
  it('--live shows the rendered progress once, and live.log records the same text under its header', () => {
    const { files, terminal } = watch(CALL, { live: true });
    expect(terminal).toBe(SHOWN);
    expect(files.liveLog).toBe(`\n\n=== Loop #1 - ${localTimestamp(T0)} ===${SHOWN}`);
    expect(files.ended).toBe(1);
  });

  it('--show-tool-args shows the whole argument, while the tool named in progress.json stays one short line', () => {
    const { terminal, files } = watch(CALL, { live: true, showToolArgs: true });
    expect(terminal.split('\n')[0]).toBe(`⚡ [Bash] npm test -- --grep "${'x'.repeat(80)}" second line`);
    expect(files.progress.at(-1)?.['current_tool']).toBe(TOOL);
  });

  it('progress.json: at the start, then every other beat, with the tool, its count and the last line shown', () => {
    const { files } = watch(CALL, { live: false });
    const common = { status: 'executing', loop: 1, started_at: '2026-03-02T10:00:00.000Z' };
    expect(files.progress).toEqual([
      { ...common, indicator: '⠋', elapsed_seconds: 0, last_output: '', timestamp: localTimestamp(T0), current_tool: null, tool_uses: 0 },
      // Each piece of output names its own last line: a line still streaming shows as far as it came.
      { ...common, indicator: '⠙', elapsed_seconds: 2, last_output: 'Now the docs.', timestamp: localTimestamp(T0 + 2000), current_tool: TOOL, tool_uses: 1 },
      {
        ...common,
        indicator: '⠹',
        elapsed_seconds: 4,
        last_output: '✅ Done · 3 turns · $0.0123 · 2.5s',
        timestamp: localTimestamp(T0 + 4000),
        current_tool: TOOL,
        tool_uses: 1,
      },
    ]);
  });

  it('without --live, the spinner on a terminal names the tool and the last line shown, and is cleared at the end', () => {
    const { terminal } = watch(CALL, { live: false, tty: true });
    const frames = terminal.split('\r\x1b[2K').filter(Boolean);
    expect(frames).toEqual([
      '⠋ mock agent working · 0s',
      `⠙ mock agent working · 1s · ${TOOL} · ⚡ [Bash]`,
      `⠹ mock agent working · 2s · ${TOOL} · Now the docs.`,
      `⠸ mock agent working · 3s · ${TOOL} · ✅ Done · 3 turns · $0.0123 · 2.5s`,
      `⠼ mock agent working · 4s · ${TOOL} · ✅ Done · 3 turns · $0.0123 · 2.5s`,
    ]);
    expect(terminal.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('redacts a secret split over two messages on the terminal, in live.log and in progress.json alike', () => {
    const redactor = createRedactor([{ name: 'API_KEY', value: SECRET }]);
    const events: LoopEvent[] = [
      { type: 'call.running', iteration: 1, startedAt: T0 },
      progress({ kind: 'text_delta', text: `key ${SECRET.slice(0, 10)}` }),
      tick(1000),
      progress({ kind: 'text_delta', text: `${SECRET.slice(10)} used` }),
      tick(2000),
      progress({ kind: 'text_end' }),
      { type: 'call.end', iteration: 1 },
    ];
    const { terminal, files } = watch(events, { live: true, redactor });
    const expected = `key ${redactor.redact(SECRET)} used\n`;
    expect(terminal).toBe(expected);
    expect(files.liveLog.endsWith(expected)).toBe(true);
    for (const written of [terminal, files.liveLog, JSON.stringify(files.progress)]) expect(written).not.toContain(SECRET.slice(0, 10));
    // The text of the secret's first half was held back, so it comes out with the second.
    expect(files.progress.at(-1)?.['last_output']).toBe(`${redactor.redact(SECRET)} used`);
  });

  it("--review --live: the reviewer's output streams like the worker's, redacted, and its view ends with the review", async () => {
    const redactor = createRedactor([{ name: 'API_KEY', value: SECRET }]);
    const verdict = '---RALPH_REVIEW---\nVERDICT: APPROVED\nFINDINGS:\n---END_RALPH_REVIEW---';
    const worker = `Done.\n---RALPH_STATUS---\nSTATUS: COMPLETE\nEXIT_SIGNAL: true\n---END_RALPH_STATUS---`;
    const h = loopHarness({
      review: {},
      config: { live: true },
      responses: [{ output: worker }, { output: worker }, { hat: 'reviewer', output: `The reviewer read it; key ${SECRET} seen.\n${verdict}` }],
    });
    expect((await h.run()).reason).toBe('project_complete');
    expect(h.requests.at(-1)).toMatchObject({ readOnly: true, live: true });
    const { terminal, files, shown } = watch(h.events, { live: true, redactor });
    expect(terminal).toContain('The reviewer read it; key');
    expect(files.liveLog).toContain('The reviewer read it; key');
    for (const written of [terminal, files.liveLog]) expect(written).not.toContain(SECRET);
    // The reviewer's output comes between its start and its end, and the end writes live.log out.
    const kinds = shown.map((e) => (e.type === 'call.output' && e.text.includes('The reviewer read it') ? 'review output' : e.type));
    const start = kinds.indexOf('review.start');
    expect(start).toBeGreaterThan(kinds.lastIndexOf('call.end'));
    expect(kinds.indexOf('review output')).toBeGreaterThan(start);
    expect(kinds.indexOf('review.end')).toBeGreaterThan(kinds.indexOf('review output'));
    expect(files.ended).toBe(h.of('call.end').length + 1);
  });

  it('--review without --live: the reviewer runs without a live view, nothing of its output is shown as it comes', async () => {
    const verdict = '---RALPH_REVIEW---\nVERDICT: APPROVED\nFINDINGS:\n---END_RALPH_REVIEW---';
    const worker = `Done.\n---RALPH_STATUS---\nSTATUS: COMPLETE\nEXIT_SIGNAL: true\n---END_RALPH_STATUS---`;
    const h = loopHarness({
      review: {},
      responses: [{ output: worker }, { output: worker }, { hat: 'reviewer', output: `The reviewer read it.\n${verdict}` }],
    });
    expect((await h.run()).reason).toBe('project_complete');
    expect(h.requests.at(-1)).toMatchObject({ readOnly: true, live: false });
    const types = h.events.map((e) => e.type);
    expect(types.slice(types.indexOf('review.start'))).not.toContain('call.progress');
  });

  it('lets out what the redactor still holds before the call ends, and starts each call afresh', () => {
    const redactor = createRedactor([{ name: 'API_KEY', value: SECRET }]);
    const call = (text: string): LoopEvent[] => [
      { type: 'call.running', iteration: 1, startedAt: T0 },
      progress({ kind: 'text_delta', text }),
      { type: 'call.end', iteration: 1 },
    ];
    const { shown } = watch([...call('ends with sk-live'), ...call('tool_use')], { live: true, redactor });
    expect(shown.map((e) => (e.type === 'call.output' ? e.text : e.type))).toEqual([
      'call.running',
      'ends with ',
      'call.activity',
      'sk-live',
      'call.end',
      'call.running',
      'tool_use',
      'call.activity',
      'call.end',
    ]);
  });

  it("each piece of output names the last line with words on it as the call's latest line", () => {
    const output = `Reading the plan.\n \u00a0\r\nEditing src/app.ts\u3000\n\n---RALPH_STATUS---\nSTATUS: IN_PROGRESS\n---END_RALPH_STATUS---\n\n \t\u2028\n`;
    const events: LoopEvent[] = [
      { type: 'call.running', iteration: 1, startedAt: T0 },
      ...output.split(/(?<=\n)/).map((text) => progress({ kind: 'text_delta', text })),
      progress({ kind: 'finished', isError: false, answer: output, errorLabel: 'Error', reason: '' }),
      { type: 'call.end', iteration: 1 },
    ];
    const { shown } = watch(events, { live: true });
    const pairs = shown.flatMap((e, i) => (e.type === 'call.output' ? [[e.text, shown[i + 1]] as const] : []));
    expect(pairs.length).toBeGreaterThan(3);
    let latest = '';
    for (const [text, next] of pairs) {
      latest =
        text
          .split('\n')
          .filter((line) => line.trim())
          .at(-1) ?? latest;
      expect(next).toEqual({ type: 'call.activity', lastLine: latest });
    }
    expect(latest).toBe('✅ Done');
  });

  it.each([
    ['one line', 'one line'],
    ['two\nlines\n', 'lines'],
    ['words\n  \t\n', 'words'],
    [' \n\u3000\n', undefined],
    ['', undefined],
    ['a\r\nb\r\n', 'b\r'],
  ])('the last line with words of %j is %j', (text, expected) => {
    expect(lastNonBlankLine(text)).toBe(expected);
  });

  it('passes every other event on as it is', () => {
    const events: LoopEvent[] = [
      { type: 'iteration.start', iteration: 2 },
      { type: 'limit.usage', message: 'resets at 5pm', until: 0 },
    ];
    expect(watch(events, { live: true }).shown).toEqual(events);
  });
});
