import { describe, expect, it } from 'vitest';
import type { RateState } from '../../../src/core/rate-limiter.js';
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
