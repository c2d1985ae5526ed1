import { describe, expect, it } from 'vitest';
import { parseQuotaThreshold, type QuotaThreshold } from '../../../src/core/quota-windows.js';
import { claudeWindowsStream, type WindowReport } from '../../helpers/claude-windows-stream.js';
import { loopHarness, statusBlock } from './support/loop-harness.js';
import { ManualClock } from './support/manual-clock.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-03-02T10:00:00Z');
const rule = (raw: string): QuotaThreshold | null => {
  const parsed = parseQuotaThreshold(raw);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.value;
};
const working = `Working.\n${statusBlock()}`;
/** One recorded Claude call reporting these windows, replayed by the mock through Claude's own reader. */
const call = (windows: WindowReport[], usage?: Parameters<typeof claudeWindowsStream>[2]): Record<string, unknown> => ({
  output: claudeWindowsStream(windows, working, usage),
  raw: true,
});
const weeklyWarning = (resetsInHours = 3): WindowReport => ({
  kind: 'seven_day',
  status: 'allowed_warning',
  resetsAt: START + resetsInHours * HOUR,
  utilization: 0.81,
});
const fiveHourAllowed: WindowReport = { kind: 'five_hour', status: 'allowed', resetsAt: START + 2 * HOUR, utilization: 0.2 };

describe('runLoop: subscription windows', () => {
  it('--park-at warning: finishes the iteration, waits until the window resets, then calls again', async () => {
    const h = loopHarness({
      clock: new ManualClock(START),
      responses: [call([fiveHourAllowed, weeklyWarning()]), call([{ ...fiveHourAllowed, resetsAt: START + 5 * HOUR }])],
      config: { maxLoops: 2, parkAt: rule('warning') },
    });
    expect(await h.run()).toMatchObject({ reason: 'max_loops', exitCode: 7, loops: 2 });
    const [wait] = h.of('wait.start');
    expect(wait?.wait).toEqual({
      reason: 'quota_window',
      until: START + 3 * HOUR,
      message: 'Parked: the weekly window (seven_day) is 81% used (--park-at warning)',
    });
    expect(h.of('wait.end')).toEqual([expect.objectContaining({ end: 'done' })]);
    // The iteration ended before the wait, and the next call came after the reset.
    expect(h.recorded().filter((t) => ['iteration.start', 'iteration.end', 'wait.start', 'wait.end'].includes(t))).toEqual([
      'iteration.start',
      'iteration.end',
      'wait.start',
      'wait.end',
      'iteration.start',
      'iteration.end',
    ]);
    expect(h.clock.now()).toBeGreaterThanOrEqual(START + 3 * HOUR);
    expect(h.store.rate.wait).toBeUndefined();
    const parked = h.of('status').find((e) => e.run.waiting?.reason === 'quota_window');
    expect(parked?.run.quotaWindows).toEqual([
      { kind: 'five_hour', status: 'allowed', resetsAt: START + 2 * HOUR, usedPercent: 20 },
      { kind: 'seven_day', status: 'warning', resetsAt: START + 3 * HOUR, usedPercent: 81 },
    ]);
  });

  it('--park-at warning:five_hour ignores a warning of another window', async () => {
    const h = loopHarness({
      clock: new ManualClock(START),
      responses: [call([weeklyWarning()]), call([])],
      config: { maxLoops: 2, parkAt: rule('warning:five_hour') },
    });
    expect(await h.run()).toMatchObject({ reason: 'max_loops', loops: 2 });
    expect(h.of('wait.start')).toEqual([]);
  });

  it('a window that reports no warning is no reason to wait', async () => {
    const h = loopHarness({ clock: new ManualClock(START), responses: [call([fiveHourAllowed]), call([])], config: { maxLoops: 2, parkAt: rule('warning') } });
    expect(await h.run()).toMatchObject({ reason: 'max_loops', loops: 2 });
    expect(h.of('wait.start')).toEqual([]);
  });

  it('--stop-at warning: ends the run with quota_reserved (exit 5), naming the window and its reset', async () => {
    const h = loopHarness({
      clock: new ManualClock(START),
      responses: [call([fiveHourAllowed, weeklyWarning()]), call([])],
      config: { stopAt: rule('warning') },
    });
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'quota_reserved', exitCode: 5, loops: 1 });
    expect(result.message).toBe(`the weekly window (seven_day) is 81% used (--stop-at warning); it resets at ${new Date(START + 3 * HOUR).toLocaleString()}`);
    expect(h.of('wait.start')).toEqual([]);
    expect(h.of('iteration.end')).toHaveLength(1);
  });

  it('--stop-at wins over --park-at for the same window', async () => {
    const h = loopHarness({
      clock: new ManualClock(START),
      responses: [call([weeklyWarning()])],
      config: { parkAt: rule('warning'), stopAt: rule('warning:seven_day') },
    });
    expect(await h.run()).toMatchObject({ reason: 'quota_reserved', exitCode: 5 });
  });

  it('a park that would outlast --max-runtime ends the run at once (exit 7)', async () => {
    const h = loopHarness({
      clock: new ManualClock(START),
      responses: [call([weeklyWarning(30)])],
      config: { parkAt: rule('warning'), maxRuntimeMinutes: 120 },
    });
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'max_runtime', exitCode: 7 });
    expect(result.message).toMatch(/^the weekly window resets at .*, after --max-runtime ends$/);
  });

  it('Ctrl+C while parked keeps the wait saved; the next run resumes it before calling', async () => {
    const first = loopHarness({ clock: new ManualClock(START), responses: [call([weeklyWarning()]), call([])], config: { parkAt: rule('warning') } });
    first.clock.onSleep = () => first.abort.abort('SIGINT');
    expect(await first.run()).toMatchObject({ reason: 'interrupted', exitCode: 130 });
    expect(first.store.rate.wait).toMatchObject({ reason: 'quota_window', until: START + 3 * HOUR });
    expect(first.of('status').at(-1)?.run.waiting).toMatchObject({ reason: 'quota_window' });

    const second = loopHarness({
      dir: first.dir,
      store: first.store,
      clock: first.clock,
      responses: [call([])],
      config: { maxLoops: 1, parkAt: rule('warning') },
    });
    expect(await second.run()).toMatchObject({ reason: 'max_loops', exitCode: 7 });
    expect(second.recorded().slice(0, 4)).toEqual(['loop.start', 'wait.start', 'wait.end', 'iteration.start']);
    expect(second.clock.now()).toBeGreaterThanOrEqual(START + 3 * HOUR);
  });

  it('`ralph --stop` while parked ends the loop', async () => {
    const h = loopHarness({ clock: new ManualClock(START), responses: [call([weeklyWarning()]), call([])], config: { parkAt: rule('warning') } });
    h.clock.onSleep = () => {
      if (h.clock.sleeps.length === 3) h.store.stop = true;
    };
    expect(await h.run()).toMatchObject({ reason: 'stop_requested', exitCode: 0, loops: 1 });
    expect(h.of('wait.end')).toEqual([expect.objectContaining({ end: 'stopped' })]);
  });

  it('--park-at 80% parks on the used percentage', async () => {
    const h = loopHarness({
      clock: new ManualClock(START),
      responses: [call([{ ...fiveHourAllowed, utilization: 0.85 }]), call([])],
      config: { maxLoops: 2, parkAt: rule('80%') },
    });
    expect(await h.run()).toMatchObject({ reason: 'max_loops', loops: 2 });
    expect(h.of('wait.start')[0]?.wait).toMatchObject({
      reason: 'quota_window',
      until: START + 2 * HOUR,
      message: expect.stringContaining('5-hour window (five_hour) is 85% used'),
    });
  });
});

describe('runLoop: --max-tokens', () => {
  it('counts cache reads and writes as the API reports them: the cap is hit mid-run', async () => {
    // 100 input + 20 output + 500 cache read + 400 cache write = 1020 a call; input+output alone would never reach 1500.
    const usage = { input: 100, output: 20, cacheRead: 500, cacheWrite: 400 };
    const h = loopHarness({ responses: [call([], usage), call([], usage), call([], usage)], config: { maxTokens: 1500, maxLoops: 5 } });
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'max_tokens', exitCode: 7, loops: 2 });
    expect(result.message).toBe('used 2040 tokens, cache reads and writes included (limit 1500)');
  });
});
