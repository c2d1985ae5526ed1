import { describe, expect, it } from 'vitest';
import type { RawCheckRun, RawStatus } from '../../../src/core/queue/follow/ci-checks.js';
import { failedChecks, waitForChecks } from '../../../src/features/queue/follow-checks.js';
import type { Clock } from '../../../src/ports.js';

/** A clock whose sleep only moves time on: no real timer runs. */
function fakeClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
    every: () => undefined,
  };
}

/** A GitHub whose answers for the commit are given look by look (the last one repeats). */
function client(looks: { runs?: RawCheckRun[]; statuses?: RawStatus[] }[], failLooks = 0) {
  let look = 0;
  let failures = failLooks;
  return {
    listCheckRuns: () => {
      if (failures > 0) {
        failures -= 1;
        return Promise.reject(new Error('GitHub answered 502'));
      }
      look += 1;
      return Promise.resolve(looks[Math.min(look, looks.length) - 1]?.runs ?? []);
    },
    listStatuses: () => Promise.resolve(looks[Math.min(Math.max(look, 1), looks.length) - 1]?.statuses ?? []),
    listAnnotations: (id: number) => Promise.resolve([`a.ts:${id} failure: broken`]),
  };
}

const pending: RawCheckRun = { id: 1, name: 'test', status: 'in_progress', conclusion: null };
const passed: RawCheckRun = { id: 1, name: 'test', status: 'completed', conclusion: 'success' };
const failed: RawCheckRun = { id: 1, name: 'test', status: 'completed', conclusion: 'failure', output: { annotations_count: 1 } };

async function wait(looks: Parameters<typeof client>[0], timeoutMs = 60_000, failLooks = 0) {
  const clock = fakeClock();
  const seen: string[] = [];
  const notices: string[] = [];
  const result = await waitForChecks({
    client: client(looks, failLooks),
    clock,
    sha: 'a'.repeat(40),
    intervalMs: 1000,
    timeoutMs,
    signal: new AbortController().signal,
    onChecks: (checks) => {
      seen.push(checks.map((c) => `${c.name}:${c.state}`).join(','));
    },
    notice: (m) => notices.push(m),
  });
  return { result, slept: clock.slept, seen, notices };
}

describe('waitForChecks', () => {
  it('waits while a check runs, then reports it passed; each change is told once', async () => {
    const { result, slept, seen } = await wait([{ runs: [pending] }, { runs: [pending] }, { runs: [passed] }]);
    expect(result.step).toBe('passed');
    expect(slept).toEqual([1000, 1000]);
    expect(seen).toEqual(['test:pending', 'test:success']);
  });

  it('a failure with a pending status waits for the status too', async () => {
    const { result } = await wait([
      { runs: [failed], statuses: [{ context: 'ci', state: 'pending' }] },
      { runs: [failed], statuses: [{ context: 'ci', state: 'success' }] },
    ]);
    expect(result.step).toBe('failed');
    expect(result.checks.map((c) => [c.name, c.state])).toEqual([
      ['test', 'failure'],
      ['ci', 'success'],
    ]);
  });

  it('a commit without checks is looked at a few times, then has none', async () => {
    const { result, slept } = await wait([{}]);
    expect(result.step).toBe('no-checks');
    expect(slept).toHaveLength(2);
  });

  it('gives up at the timeout', async () => {
    const { result, slept } = await wait([{ runs: [pending] }], 5000);
    expect(result.step).toBe('timed-out');
    expect(slept).toHaveLength(5);
  });

  it('says a failed look and tries again', async () => {
    const { result, notices } = await wait([{ runs: [passed] }], 60_000, 2);
    expect(result.step).toBe('passed');
    expect(notices).toEqual([
      `could not read the checks of ${'a'.repeat(12)} (GitHub answered 502); trying again`,
      `could not read the checks of ${'a'.repeat(12)} (GitHub answered 502); trying again`,
    ]);
  });

  it('reads the annotations of failed check runs only', async () => {
    const { result } = await wait([{ runs: [failed, { ...passed, id: 2, name: 'lint' }] }]);
    const found = await failedChecks(client([]), result.checks);
    expect(found.map((c) => [c.name, c.annotations])).toEqual([['test', ['a.ts:1 failure: broken']]]);
  });
});
