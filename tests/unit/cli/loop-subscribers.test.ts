import { describe, expect, it } from 'vitest';
import { toEventRecord } from '../../../src/cli/loop/event-log-recorder.js';
import type { ShownEvent } from '../../../src/cli/loop/live-view.js';
import { createNotifierPolicy } from '../../../src/cli/loop/notifier-policy.js';
import { createTerminalPresenter } from '../../../src/cli/loop/terminal-presenter.js';
import { emptyTotals } from '../../../src/core/status-model.js';
import { makeAnalysis } from '../support/analysis.js';
import type { LoopEvent } from '../../../src/engine/loop-events.js';
import type { NotifyEvent } from '../../../src/ports.js';
import { createMemoryLogger } from '../../../src/ui/logger.js';
import { done, loopHarness, working } from '../engine/support/loop-harness.js';

/** What a write puts on the terminal: --live output comes as UTF-8 bytes. */
const asText = (t: string | Uint8Array): string => (typeof t === 'string' ? t : Buffer.from(t).toString('utf8'));

/** What a person at the terminal sees of these events (no terminal: no spinner). */
function present(events: ShownEvent[], live = false): { lines: string[]; written: string[] } {
  const logger = createMemoryLogger();
  const written: string[] = [];
  const presenter = createTerminalPresenter({
    logger,
    write: (t) => written.push(asText(t)),
    tty: false,
    live,
    createCallProgress: () => ({ update() {}, tick() {}, stop() {} }),
  });
  for (const event of events) presenter(event);
  return { lines: logger.lines, written };
}

describe('the terminal presenter', () => {
  it('says a run in the lines users know', async () => {
    const h = loopHarness({ responses: [working(), done()], config: { maxLoops: 1 } });
    await h.run();
    const { lines } = present(h.events);
    expect(lines[0]).toBe('[SUCCESS] 🚀 Ralph loop starting (mock backend)');
    expect(lines[1]).toBe(`[INFO] Max calls/hour: 100; timeout: 15 min; project: ${h.dir}`);
    expect(lines[2]).toBe('[LOOP] === Starting Loop #1 ===');
    expect(lines[3]).toBe('[INFO] Executing mock agent (call 1; timeout 15 min)');
    expect(lines).toContain('[LOOP] === Completed Loop #1 (success, 0s) ===');
    expect(lines.slice(-3)).toEqual([
      '[WARN] Loop stopped: max_loops — reached --max-loops 1',
      '[INFO] Loops: 1; calls: 1; cost: $0.0000; tokens: 0 in / 0 out; time: 0s',
      '[INFO] Exit reason: max_loops (exit code 7)',
    ]);
  });

  it('names the agent that runs in a denial it refused despite the rule, and its own remedy in the halt screen', () => {
    const start = { type: 'loop.start', backend: 'codex', dryRun: false, maxCallsPerHour: 100, timeoutMinutes: 15, project: '/p' } as unknown as LoopEvent;
    const analysis = {
      type: 'analysis',
      iteration: 1,
      analysis: makeAnalysis({ hasCompoundCommandLimitation: true, compoundCommandCount: 1, deniedCommands: ['Bash(touch a.txt)'] }),
    };
    const stop = {
      type: 'loop.stop',
      reason: 'permission_denied',
      detail: '',
      signal: '',
      permissionHalt: { denied: ['Shell(touch a.txt)'], allowedLine: 'ALLOWED_TOOLS="Write,Shell"', suggestions: ['Shell'] },
    };
    const { lines } = present([start, analysis as unknown as LoopEvent, stop as unknown as LoopEvent]);
    const text = lines.join('\n');
    expect(text).toContain('[WARN] Codex CLI refused 1 command whose base command is already in ALLOWED_TOOLS: Bash(touch a.txt).');
    expect(text).not.toMatch(/Claude|compound/);
    expect(text).toContain('Codex CLI was denied these tools or commands:');
    expect(text).toContain('CODEX_EXTRA_ARGS="--sandbox workspace-write"');
    expect(text).not.toContain('ALLOWED_TOOLS="Write,Shell"');
  });

  it('never shows a run whose calls had no known price as $0.0000', () => {
    const exit = (usd: number, unknown: number): LoopEvent => ({
      type: 'loop.exit',
      reason: 'max_loops',
      exitCode: 7,
      iterations: 2,
      startedAt: 0,
      endedAt: 60_000,
      message: '',
      totals: { ...emptyTotals(), calls: 2, cost_usd: usd, cost_estimated: usd > 0, cost_unknown_calls: unknown, input_tokens: 2400, output_tokens: 160 },
    });
    expect(present([exit(0, 2)]).lines[0]).toBe(
      '[INFO] Loops: 2; calls: 2; cost: unknown for 2 calls (no price known for the model); tokens: 2400 in / 160 out; time: 1m 0s',
    );
    expect(present([exit(0.01, 1)]).lines[0]).toContain('cost: $0.0100 (estimated) + unknown for 1 call (no price known for the model);');
  });

  it('shows a wait as a line and a countdown without a terminal', async () => {
    const h = loopHarness({ responses: [working(), working()], config: { maxCallsPerHour: 1, maxLoops: 2 } });
    await h.run();
    const { lines, written } = present(h.events);
    expect(lines).toContainEqual(expect.stringMatching(/^\[INFO\] Rate limit reached \(calls: 1\/1\) — waiting 1h 0m 0s \(until .+\)$/));
    expect(written[0]).toMatch(/^Rate limit reached \(calls: 1\/1\) — waiting 01:00:00 \(until .+\)\n$/);
    // One line a minute, never a flood.
    expect(written.filter((t) => t.startsWith('  … '))).toHaveLength(59);
  });

  it("tells each of the sandbox's refusals once a loop, and records every one", () => {
    const refused = (iteration: number, detail: string): LoopEvent => ({ type: 'sandbox.refused', iteration, refusal: { kind: 'network', detail } });
    const events = [
      refused(1, 'deny network-outbound a.example:443'),
      refused(1, 'deny network-outbound a.example:443'),
      refused(2, 'deny network-outbound a.example:443'),
    ];
    expect(present(events).lines).toEqual([
      '[WARN] 🛡️  Sandbox refused the agent: deny network-outbound a.example:443',
      '[WARN] 🛡️  Sandbox refused the agent: deny network-outbound a.example:443',
    ]);
    expect(events.map(toEventRecord)).toEqual(
      [1, 1, 2].map((iteration) => ['sandbox.refused', { iteration, kind: 'network', detail: 'deny network-outbound a.example:443' }]),
    );
  });

  it('with --live writes the agent output as it arrives', () => {
    const { written } = present([{ type: 'call.output', text: 'hello\n' }], true);
    expect(written).toEqual(['hello\n']);
  });

  describe('with --live output held until its burst is handled', () => {
    /** Lines and writes in the one order a terminal shows them; `flush` runs what was deferred. */
    function heldPresenter(): { seen: string[]; writes: string[]; present(e: ShownEvent): void; flush(): void } {
      const seen: string[] = [];
      const writes: string[] = [];
      const logger = createMemoryLogger();
      const deferred: Array<() => void> = [];
      const line = (level: string) => (m: string) => seen.push(`[${level}] ${m}`);
      const presenter = createTerminalPresenter({
        logger: { ...logger, info: line('INFO'), warn: line('WARN'), loop: line('LOOP'), print: (t) => seen.push(t) },
        write: (t) => {
          seen.push(asText(t));
          writes.push(asText(t));
        },
        tty: false,
        live: true,
        createCallProgress: () => ({ update() {}, tick() {}, stop() {} }),
        deferLiveOutput: (flush) => deferred.push(flush),
      });
      return { seen, writes, present: presenter, flush: () => deferred.splice(0).forEach((f) => f()) };
    }

    it('writes the pieces of one burst together, in their order, once it is handled', () => {
      const p = heldPresenter();
      p.present({ type: 'call.output', text: 'one ' });
      p.present({ type: 'call.activity', lastLine: 'one' });
      p.present({ type: 'call.output', text: 'two\n' });
      expect(p.writes).toEqual([]);
      p.flush();
      p.present({ type: 'call.output', text: 'three\n' });
      p.flush();
      expect(p.writes).toEqual(['one two\n', 'three\n']);
    });

    it('writes what it holds before any line of its own, so the order stays the same', () => {
      const p = heldPresenter();
      p.present({ type: 'call.output', text: 'agent text\n' });
      p.present({ type: 'limit.usage', message: 'resets at 5pm', until: 0 });
      p.present({ type: 'call.output', text: 'last words\n' });
      p.present({ type: 'call.end', iteration: 1 });
      expect(p.seen).toEqual(['agent text\n', '[WARN] The agent hit its usage limit: resets at 5pm', 'last words\n']);
      p.flush();
      expect(p.writes).toEqual(['agent text\n', 'last words\n']);
    });

    it('writes every character as it came, past the size of one write, in its order', () => {
      const p = heldPresenter();
      const pieces = ['⚡ [Bash] npm test\n', `${'é'.repeat(30_000)}\n`, 'x'.repeat(70_000), '\n🚀 Agent: review ✅\n'];
      for (const text of pieces) p.present({ type: 'call.output', text });
      p.flush();
      expect(p.writes.join('')).toBe(pieces.join(''));
      // Each write is whole characters: none is cut between two writes.
      for (const written of p.writes) expect(written).not.toContain('\uFFFD');
    });
  });
});

describe('the event-log recorder', () => {
  it('records the events of session.jsonl with the fields its readers rely on', async () => {
    const h = loopHarness({ responses: [working({ cost_usd: 0.5 })], config: { maxLoops: 1 } });
    await h.run();
    const byName = new Map(
      h.events.flatMap((e) => {
        const r = toEventRecord(e);
        return r ? [r] : [];
      }),
    );
    expect(byName.get('loop.start')).toEqual({ project: h.dir, backend: 'mock', max_loops: 1, dry_run: false, verify_command: null, task: null, pid: 4242 });
    expect(byName.get('agent.result')).toMatchObject({ iteration: 1, end: 'exited', outcome: 'success', cost_usd: 0.5, mock_response: 0 });
    expect(byName.get('iteration.end')).toEqual({ iteration: 1, outcome: 'success', result: 'success', success: true, duration_ms: 0 });
    expect(byName.get('loop.exit')).toEqual({ reason: 'max_loops', exit_code: 7, iterations: 1, elapsed_secs: 0, message: 'reached --max-loops 1' });
  });
});

describe('the notifier policy', () => {
  it('notifies the stops and waits that need a person, never an iteration', async () => {
    const sent: Array<[NotifyEvent, string]> = [];
    const policy = createNotifierPolicy({ notify: (kind, message) => void sent.push([kind, message]) });
    const h = loopHarness({ responses: [working(), done(), done()] });
    await h.run();
    for (const e of h.events) policy(e);
    expect(sent).toEqual([['completed', 'Project completed! Exit reason: project_complete']]);
  });
});
