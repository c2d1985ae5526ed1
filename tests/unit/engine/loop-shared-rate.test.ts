import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RateState } from '../../../src/core/rate-limiter.js';
import { SharedRate } from '../../../src/state/shared-rate.js';
import { ManualClock } from './support/manual-clock.js';
import { MemoryStore } from './support/memory-store.js';
import { loopHarness, working } from './support/loop-harness.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A project folder of the test's own: the agent's output log is a real file written there. */
function projectDir(): { project: string; outputDir: string } {
  const dir = tempDir('ralph-loop-');
  return { project: dir, outputDir: dir };
}

/** A store whose hourly window other loops also spend (ralph queue run): they made `others` calls meanwhile. */
class SharedWindowStore extends MemoryStore {
  others: number[] = [];
  refreshed = 0;
  refreshRate(current: RateState): RateState {
    this.refreshed += 1;
    const foreign = this.others.map((at) => ({ at, tokens: 0 }));
    return { ...current, calls: [...current.calls.filter((c) => !this.others.includes(c.at)), ...foreign] };
  }
}

describe('runLoop: an hourly call budget shared with other loops', () => {
  it('reads the calls other loops made before each call, and waits when together they used the hour', async () => {
    const store = new SharedWindowStore(projectDir(), () => undefined);
    const h = loopHarness({ store, responses: [working(), working()], config: { maxCallsPerHour: 2, maxLoops: 2 } });
    // Another loop made one call just now: this loop has one call left before the window is full.
    store.others = [h.clock.now() - 1000];
    const result = await h.run();
    expect(result.reason).toBe('max_loops');
    expect(h.of('wait.start').map((e) => e.wait.message)).toEqual(['Rate limit reached (calls: 2/2)']);
    expect(store.refreshed).toBeGreaterThanOrEqual(2);
  });

  it('names each call by the store’s identity and waits until the shared budget has it before the call starts', async () => {
    class IdentifiedStore extends SharedWindowStore {
      private n = 0;
      settledAt: number[] = [];
      nextCallId(): string {
        this.n += 1;
        return `loop-a#${this.n}`;
      }
      async settleSharedRate(): Promise<void> {
        this.settledAt.push(this.rate.calls.length);
        await Promise.resolve();
      }
    }
    // The mock agent writes its output log into outputDir: a folder of the test's own.
    const dir = tempDir('ralph-shared-rate-');
    const store = new IdentifiedStore({ project: dir, outputDir: dir }, () => undefined);
    const h = loopHarness({ store, responses: [working(), working()], config: { maxCallsPerHour: 10, maxLoops: 2 } });
    expect((await h.run()).reason).toBe('max_loops');
    expect(store.rate.calls.map((c) => c.id)).toEqual(['loop-a#1', 'loop-a#2']);
    // Each call was settled in the shared budget once it was recorded, before the agent ran.
    expect(store.settledAt).toEqual([1, 2]);
  });

  it('when another loop claimed the last place first, the call waits for the window instead of going over it', async () => {
    class RacedStore extends SharedWindowStore {
      claims = 0;
      async reserveSharedCall(nowMs: number): Promise<boolean> {
        this.claims += 1;
        if (this.claims > 1) return true;
        // The other loop's claim landed between this loop's check and its claim.
        this.others = [nowMs];
        return false;
      }
    }
    const store = new RacedStore(projectDir(), () => undefined);
    const h = loopHarness({ store, responses: [working()], config: { maxCallsPerHour: 1, maxLoops: 1 } });
    expect((await h.run()).reason).toBe('max_loops');
    expect(h.of('wait.start').map((e) => e.wait.message)).toEqual(['Rate limit reached (calls: 1/1)']);
    // The call came after the wait, on the second claim.
    expect(store.claims).toBe(2);
    expect(h.of('call.start')).toHaveLength(1);
  });

  it('a store without a shared window is left alone', async () => {
    const h = loopHarness({
      store: new MemoryStore(projectDir(), () => undefined),
      responses: [working(), working()],
      config: { maxCallsPerHour: 2, maxLoops: 2 },
    });
    expect((await h.run()).reason).toBe('max_loops');
    expect(h.of('wait.start')).toEqual([]);
  });
});

/** The queue's shared budget as LoopStore keeps it: a real shared file, reserved places, calls written in the background. */
class QueueStore extends MemoryStore {
  private reserved: string | undefined;
  private writes: Promise<unknown> = Promise.resolve();
  reservations = 0;
  constructor(
    dir: string,
    private readonly shared: SharedRate,
    private readonly clock: ManualClock,
  ) {
    super({ project: dir, outputDir: dir }, () => (existsSync(join(dir, 'fix_plan.md')) ? readFileSync(join(dir, 'fix_plan.md'), 'utf8') : undefined));
  }
  refreshRate(current: RateState): RateState {
    return this.shared.view(current);
  }
  async reserveSharedCall(nowMs: number, maxCallsPerHour: number): Promise<boolean> {
    this.reservations += 1;
    this.reserved = await this.shared.reserve(nowMs, maxCallsPerHour);
    return this.reserved !== undefined;
  }
  nextCallId(): string {
    const reserved = this.reserved;
    this.reserved = undefined;
    return reserved ?? this.shared.nextCallId();
  }
  override saveRate(state: RateState): void {
    super.saveRate(state);
    const now = this.clock.now();
    this.writes = this.writes.then(() => this.shared.record(state, now));
  }
  settleSharedRate(): Promise<void> {
    return this.writes.then(() => undefined);
  }
}

describe('runLoop --review in a shared hourly budget (ralph queue run)', () => {
  it('a review made instead of a call on a complete plan takes that call’s place: each call is counted once', async () => {
    const dir = tempDir('ralph-shared-review-');
    const owner = tempDir('ralph-shared-owner-');
    mkdirSync(join(owner, '.ralph'));
    const file = join(owner, '.ralph', '.rate_limit_state');
    const clock = new ManualClock();
    const store = new QueueStore(dir, new SharedRate(file, 'loop-a'), clock);
    const block = (verdict: string, finding?: string): string =>
      ['---RALPH_REVIEW---', `VERDICT: ${verdict}`, 'FINDINGS:', ...(finding ? [`- ${finding}`] : []), '---END_RALPH_REVIEW---'].join('\n');
    const h = loopHarness({
      dir,
      store,
      clock,
      review: {},
      fixPlan: '# Fix Plan\n\n## High Priority\n- [x] first task\n',
      config: { maxCallsPerHour: 10 },
      responses: [
        { hat: 'reviewer', output: block('CHANGES_REQUESTED', 'nothing is tested') },
        { output: 'Added the tests.' },
        { hat: 'reviewer', output: block('APPROVED') },
      ],
    });
    expect(await h.run()).toMatchObject({ reason: 'plan_complete', exitCode: 0 });
    await store.settleSharedRate();
    // Two reviews on a complete plan (each where a worker call would have been) and one worker call between them.
    expect(h.requests.map((r) => (r.readOnly ? 'review' : 'work'))).toEqual(['review', 'work', 'review']);
    const shared = JSON.parse(readFileSync(file, 'utf8')) as RateState;
    expect(shared.calls.map((c) => c.id)).toEqual(['loop-a#1', 'loop-a#2', 'loop-a#3']);
    expect(store.rate.calls.map((c) => c.id)).toEqual(['loop-a#1', 'loop-a#2', 'loop-a#3']);
    expect(store.reservations).toBe(3);
  });
});
