import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from './support/memory-store.js';
import { loopHarness, working } from './support/loop-harness.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A project folder of the test's own: the agent's output log is a real file written there. */
function projectDir(): { project: string; outputDir: string } {
  const dir = tempDir('ralph-loop-');
  return { project: dir, outputDir: dir };
}

const HOUR = 3_600_000;
const usageLimit = (text = "You've hit your 5-hour limit · resets in 2h"): Record<string, unknown> => ({ output: text, exit_code: 1 });
const rateLimited = { output: 'API Error: Request rejected (429) · rate_limit_error', exit_code: 1 };
const overloaded = { output: 'API Error: 529 overloaded_error: Overloaded', exit_code: 1 };
/** Claude Code's recorded answer to an HTTP 500 that outlasted its own retries. */
const serverError = {
  output: readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'claude-cli', 'json-error-server-500.json'), 'utf8'),
  raw: true,
  exit_code: 1,
};

describe('runLoop: waits', () => {
  it('the hourly call budget: waits until the oldest call leaves the window, then goes on', async () => {
    const h = loopHarness({ responses: [working(), working()], config: { maxCallsPerHour: 1, maxLoops: 2 } });
    const start = h.clock.now();
    const result = await h.run();
    expect(result.reason).toBe('max_loops');
    const [wait] = h.of('wait.start');
    expect(wait?.wait).toMatchObject({ reason: 'rate_limit', message: 'Rate limit reached (calls: 1/1)' });
    expect(h.of('wait.end')).toEqual([expect.objectContaining({ end: 'done' })]);
    expect(h.clock.now() - start).toBeGreaterThanOrEqual(HOUR);
    // The wait is over: nothing of it stays behind for the next run.
    expect(h.store.rate.wait).toBeUndefined();
    expect(h.of('wait.tick').length).toBeGreaterThan(3000);
  });

  it('the hourly call budget holds across a restart: the next run waits before its first call', async () => {
    const first = loopHarness({ responses: [working(), working(), working()], config: { maxCallsPerHour: 2, maxLoops: 2 } });
    expect((await first.run()).exitCode).toBe(7);
    const second = loopHarness({ dir: first.dir, store: first.store, clock: first.clock, responses: [working()], config: { maxCallsPerHour: 2, maxLoops: 1 } });
    expect((await second.run()).reason).toBe('max_loops');
    expect(second.of('wait.start').map((e) => e.wait.message)).toEqual(['Rate limit reached (calls: 2/2)']);
  });

  it('a wait cut short by Ctrl+C stays saved, and the next run resumes it before calling', async () => {
    const first = loopHarness({ responses: [working(), working()], config: { maxCallsPerHour: 1 } });
    first.clock.onSleep = () => first.abort.abort('SIGINT');
    expect(await first.run()).toMatchObject({ reason: 'interrupted', exitCode: 130 });
    expect(first.store.rate.wait).toMatchObject({ reason: 'rate_limit' });
    expect(first.of('wait.end')).toEqual([expect.objectContaining({ end: 'interrupted' })]);
    // The status keeps showing the wait: the next run resumes it.
    expect(first.of('status').at(-1)?.run.waiting).toMatchObject({ reason: 'rate_limit' });

    const second = loopHarness({ dir: first.dir, store: first.store, clock: first.clock, responses: [working()], config: { maxCallsPerHour: 1, maxLoops: 1 } });
    expect(await second.run()).toMatchObject({ reason: 'max_loops', exitCode: 7 });
    expect(second.notices('wait.resumed')).toEqual(['Resuming the wait saved by the previous run']);
    expect(second.recorded().slice(0, 4)).toEqual(['loop.start', 'wait.start', 'wait.end', 'iteration.start']);
  });

  it('`ralph --stop` during a wait ends the loop', async () => {
    const h = loopHarness({ responses: [working(), working()], config: { maxCallsPerHour: 1 } });
    h.clock.onSleep = () => {
      if (h.clock.sleeps.length === 5) h.store.stop = true;
    };
    expect(await h.run()).toMatchObject({ reason: 'stop_requested', exitCode: 0 });
    expect(h.of('wait.end')).toEqual([expect.objectContaining({ end: 'stopped' })]);
  });

  it('max_runtime: a wait that used up the runtime ends the run before the next call (exit 7)', async () => {
    const h = loopHarness({ responses: [working(), working()], config: { maxCallsPerHour: 1, maxRuntimeMinutes: 30 } });
    expect(await h.run()).toMatchObject({ reason: 'max_runtime', exitCode: 7, loops: 1 });
    expect(h.of('loop.stop')[0]?.detail).toMatch(/^ran for 1h 0m 0s \(limit 30 min\)$|^ran for .* \(limit 30 min\)$/);
  });

  it('a usage limit with a reset time waits until then plus the jitter, then resumes', async () => {
    const h = loopHarness({ responses: [usageLimit(), working()], config: { maxLoops: 2 }, random: 0.5 });
    const start = h.clock.now();
    expect(await h.run()).toMatchObject({ reason: 'max_loops', exitCode: 7 });
    const [limit] = h.of('limit.usage');
    // Two hours from the call, plus 30 s and half of the 60 s spread.
    expect(limit?.until).toBe(start + 2 * HOUR + 60_000);
    expect(h.of('wait.start')[0]?.wait).toMatchObject({ reason: 'usage_limit', until: start + 2 * HOUR + 60_000 });
    expect(h.of('iteration.end').map((e) => e.outcome)).toEqual(['usage_limit', 'success']);
  });

  it('a usage limit without a reset time waits the configured minutes', async () => {
    const h = loopHarness({ responses: [usageLimit('Claude usage limit reached.'), working()], config: { maxLoops: 2, usageLimitWaitMinutes: 45 } });
    const start = h.clock.now();
    await h.run();
    expect(h.of('wait.start')[0]?.wait.until).toBe(start + 45 * 60_000);
    expect(h.of('status').some((e) => e.run.message.startsWith('Waiting for the usage limit to reset'))).toBe(true);
  });

  it('a usage limit that resets after --max-runtime ends the run at once (exit 5)', async () => {
    const h = loopHarness({ responses: [usageLimit()], config: { maxRuntimeMinutes: 60 } });
    expect(await h.run()).toMatchObject({ reason: 'usage_limit', exitCode: 5 });
    expect(h.of('wait.start')).toEqual([]);
    expect(h.of('loop.stop')[0]?.detail).toMatch(/^the limit resets at .*, after --max-runtime ends$/);
  });

  it('at a terminal the user may stop at a usage limit instead of waiting (exit 5)', async () => {
    const h = loopHarness({ responses: [usageLimit()], tty: true, answers: ['exit'] });
    expect(await h.run()).toMatchObject({ reason: 'usage_limit', exitCode: 5, message: 'exited at the usage-limit prompt' });
    expect(h.asked[0]).toMatchObject({ choices: ['wait', 'exit'], defaultChoice: 'wait' });
    expect(h.asked[0]?.preface).toContain('usage limit has been reached');
    expect(h.store.sessionResets).toContain('api_limit_exit');
  });

  it('retries a 429 with growing waits, each a counted call, and clears the count once a call succeeds', async () => {
    const h = loopHarness({ responses: [rateLimited, rateLimited, working()], config: { maxLoops: 3, apiRetryWaitSeconds: 300 } });
    expect(await h.run()).toMatchObject({ reason: 'max_loops', exitCode: 7 });
    expect(h.notices('api_retry.waiting')).toEqual([
      expect.stringMatching(/^Rate limit detected, attempt 1\/3\. Waiting 5m 0s\.\.\. /),
      expect.stringMatching(/^Rate limit detected, attempt 2\/3\. Waiting 10m 0s\.\.\. /),
    ]);
    expect(h.of('wait.start').map((e) => e.wait.reason)).toEqual(['api_retry', 'api_retry']);
    expect(h.store.rate.apiRetry).toBeUndefined();
    expect(h.of('status').at(-1)?.run.totals.calls).toBe(3);
  });

  it('stops with exit 5 when overload errors outlast the retries, naming an overload as such', async () => {
    const h = loopHarness({ responses: [overloaded, overloaded, overloaded, overloaded] });
    expect(await h.run()).toMatchObject({ reason: 'api_rate_limit', exitCode: 5 });
    expect(h.notices('api_retry.waiting')[0]).toMatch(/^API overloaded, attempt 1\/3/);
    expect(h.notices('api_retry.exhausted')).toEqual([expect.stringMatching(/^Retry limit exceeded \(3 attempts\): /)]);
    expect(h.of('api_retry.gave_up')).toHaveLength(1);
    expect(h.store.rate.apiRetry).toBeUndefined();
  });

  it('a server error (HTTP 500) is retried with the same growing waits and named as what it is, not a rate limit', async () => {
    const h = loopHarness({ responses: [serverError, working()], config: { maxLoops: 2, apiRetryWaitSeconds: 300 } });
    expect(await h.run()).toMatchObject({ reason: 'max_loops' });
    expect(h.notices('api_retry.waiting')).toEqual([
      expect.stringMatching(/^API server error \(HTTP 500\), a passing fault on the provider's side, attempt 1\/3\. Waiting 5m 0s\.\.\. /),
    ]);
    expect(h.of('wait.start')[0]?.wait).toMatchObject({ reason: 'api_retry', message: expect.stringMatching(/^API server error \(HTTP 500\)/) });
  });

  it('at a terminal the user may keep waiting after the retries: the count starts over', async () => {
    const h = loopHarness({ responses: [overloaded, overloaded, working()], config: { apiRetryMax: 1, maxLoops: 3 }, tty: true, answers: ['yes'] });
    expect((await h.run()).reason).toBe('max_loops');
    expect(h.asked.map((q) => q.question)).toEqual(['The API keeps refusing requests. Continue waiting?']);
    expect(h.notices('api_retry.waiting')).toEqual([expect.stringContaining('attempt 1/1'), expect.stringContaining('attempt 1/1')]);
  });

  it('a wait shows in the status while it lasts', async () => {
    const store = new MemoryStore(projectDir(), () => undefined);
    const h = loopHarness({ store, responses: [working(), working()], config: { maxCallsPerHour: 1, maxLoops: 2 } });
    let seen: unknown;
    h.clock.onSleep = () => {
      seen ??= h.of('status').at(-1)?.run.waiting;
    };
    await h.run();
    expect(seen).toMatchObject({ reason: 'rate_limit', message: 'Rate limit reached (calls: 1/1)' });
  });
});
