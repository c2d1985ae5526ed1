import { describe, expect, it } from 'vitest';
import { parseQuotaThreshold, type QuotaThreshold } from '../../../src/core/quota-windows.js';
import { loopHarness, statusBlock } from './support/loop-harness.js';
import { ManualClock } from './support/manual-clock.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-03-02T10:00:00Z');
const rule = (raw: string): QuotaThreshold | null => {
  const parsed = parseQuotaThreshold(raw);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.value;
};

interface Slot {
  used_percent: number;
  window_minutes: number;
  resets_at?: number;
  resets_in_seconds?: number;
}

let thread = 0;
/**
 * One `codex exec --json` call as Codex prints it, replayed by the mock through Codex's own reader:
 * a token_count event with its rate_limits (where Codex reports them), the answer, and the turn's
 * usage, whose input_tokens count the cached ones too.
 */
function codexCall(limits: { primary?: Slot; secondary?: Slot } | undefined, usage = { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 100 }) {
  thread += 1;
  const events: unknown[] = [{ type: 'thread.started', thread_id: `thread-${thread}` }, { type: 'turn.started' }];
  if (limits) events.push({ type: 'token_count', info: null, rate_limits: limits });
  events.push({ type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: `Working.\n${statusBlock()}` } });
  events.push({ type: 'turn.completed', usage });
  return { output: `${events.map((e) => JSON.stringify(e)).join('\n')}\n`, replay: 'codex' };
}

const seconds = (ms: number): number => Math.floor(ms / 1000);
// Codex lists the weekly window first here: the kind comes from the duration, not the slot.
const weekly = (used: number): Slot => ({ used_percent: used, window_minutes: 10_080, resets_at: seconds(START + 90 * HOUR) });
const fiveHour = (used: number): Slot => ({ used_percent: used, window_minutes: 300, resets_in_seconds: 2 * 3600 });

describe("runLoop: Codex's windows", () => {
  it('--park-at 80%: parks on the 5-hour window named by its duration, until its reset, then calls again', async () => {
    const h = loopHarness({
      clock: new ManualClock(START),
      responses: [codexCall({ primary: weekly(40), secondary: fiveHour(85) }), codexCall(undefined)],
      config: { maxLoops: 2, parkAt: rule('80%') },
    });
    expect(await h.run()).toMatchObject({ reason: 'max_loops', exitCode: 7, loops: 2 });
    const [wait] = h.of('wait.start');
    expect(wait?.wait).toEqual({
      reason: 'quota_window',
      until: START + 2 * HOUR,
      message: 'Parked: the 5-hour window (five_hour) is 85% used (--park-at 80%)',
    });
    expect(h.of('wait.end')).toEqual([expect.objectContaining({ end: 'done' })]);
    expect(h.of('status').find((e) => e.run.waiting?.reason === 'quota_window')?.run.quotaWindows).toEqual([
      { kind: 'seven_day', status: 'allowed', usedPercent: 40, resetsAt: START + 90 * HOUR },
      { kind: 'five_hour', status: 'allowed', usedPercent: 85, resetsAt: START + 2 * HOUR },
    ]);
  });

  it('--stop-at 80%:seven_day: ends with quota_reserved (exit 5) once the weekly window passes 80%', async () => {
    const h = loopHarness({
      clock: new ManualClock(START),
      responses: [codexCall({ primary: weekly(91), secondary: fiveHour(10) }), codexCall(undefined)],
      config: { stopAt: rule('80%:seven_day') },
    });
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'quota_reserved', exitCode: 5, loops: 1 });
    expect(result.message).toBe(
      `the weekly window (seven_day) is 91% used (--stop-at 80%:seven_day); it resets at ${new Date(START + 90 * HOUR).toLocaleString()}`,
    );
  });

  it('a window below the percentage is no reason to stop', async () => {
    const h = loopHarness({
      clock: new ManualClock(START),
      responses: [codexCall({ primary: weekly(79), secondary: fiveHour(50) }), codexCall(undefined)],
      config: { maxLoops: 2, stopAt: rule('80%') },
    });
    expect(await h.run()).toMatchObject({ reason: 'max_loops', loops: 2 });
  });

  it('--max-tokens counts the cached tokens once: Codex reports them inside its input', async () => {
    // 1000 input (800 of them cached) + 100 output = 1100 a call: the cap of 2300 ends the run after the 3rd call.
    // Counting the cached tokens again (1900 a call) would have ended it after the 2nd.
    const usage = { input_tokens: 1000, cached_input_tokens: 800, output_tokens: 100 };
    const h = loopHarness({ responses: [1, 2, 3, 4].map(() => codexCall(undefined, usage)), config: { maxTokens: 2300, maxLoops: 10 } });
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'max_tokens', exitCode: 7, loops: 3 });
    expect(result.message).toBe('used 3300 tokens, cache reads and writes included (limit 2300)');
    expect(h.of('status').at(-1)?.run.totals).toMatchObject({ input_tokens: 600, cache_read_input_tokens: 2400, output_tokens: 300 });
  });
});
