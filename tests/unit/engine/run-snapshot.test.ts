import { describe, expect, it } from 'vitest';
import { initialCircuit } from '../../../src/core/circuit-breaker.js';
import { emptyExitSignals } from '../../../src/core/exit-signals.js';
import { emptyRateState, recordCallStart } from '../../../src/core/rate-limiter.js';
import { newRunState } from '../../../src/engine/run-state.js';
import { snapshotRun } from '../../../src/engine/run-snapshot.js';

describe('snapshotRun', () => {
  it("copies the hour's calls once per rate state, however often the run is published", () => {
    const run = newRunState(0, initialCircuit(0), emptyExitSignals(), recordCallStart(emptyRateState(), 1_000));
    const first = snapshotRun(run);
    run.loop = 1;
    const second = snapshotRun(run);
    expect(second.loop).toBe(1);
    expect(first.loop).toBe(0);
    expect(second.rate).toBe(first.rate);
    expect(Object.isFrozen(first.rate.calls)).toBe(true);
    expect(first.rate.calls).not.toBe(run.rate.calls);
  });

  it('a new rate state is copied anew, and the earlier snapshot keeps the calls it had', () => {
    const run = newRunState(0, initialCircuit(0), emptyExitSignals(), recordCallStart(emptyRateState(), 1_000));
    const before = snapshotRun(run);
    run.rate = recordCallStart(run.rate, 2_000);
    const after = snapshotRun(run);
    expect(before.rate.calls.map((c) => c.at)).toEqual([1_000]);
    expect(after.rate.calls.map((c) => c.at)).toEqual([1_000, 2_000]);
  });
});
