import { describe, expect, it } from 'vitest';
import {
  CIRCUIT_HISTORY_LIMIT,
  appendHistory,
  applyCooldown,
  cooldownRemainingMinutes,
  initialCircuit,
  recordIteration,
  resetCircuit,
  type CircuitState,
} from '../../../src/core/circuit-breaker.js';
import { LIMITS, MINUTE, T0, closed, iso, outcome, withState } from '../support/circuit.js';

/** Recovery of an open circuit (U§6.4, U§13.7), manual reset and the state files. */
describe('applyCooldown (U§6.4) with an injected clock', () => {
  const open = (overrides: Partial<CircuitState> = {}): CircuitState =>
    withState({
      state: 'OPEN',
      consecutive_no_progress: 3,
      consecutive_failures: 2,
      consecutive_same_error: 1,
      consecutive_permission_denials: 1,
      total_opens: 4,
      reason: 'No progress',
      opened_at: iso(T0),
      last_change: iso(T0),
      ...overrides,
    });

  it('does nothing unless the circuit is OPEN', () => {
    for (const state of ['CLOSED', 'HALF_OPEN'] as const) {
      const s = withState({ state });
      expect(applyCooldown(s, T0 + 999 * MINUTE, LIMITS)).toEqual({ state: s });
    }
  });

  it('cooldown 0 minutes → immediate HALF_OPEN', () => {
    const update = applyCooldown(open(), T0, { ...LIMITS, cooldownMinutes: 0 });
    expect(update.state.state).toBe('HALF_OPEN');
    expect(update.transition).toEqual({ from: 'OPEN', to: 'HALF_OPEN', reason: 'Cooldown recovery: 0m elapsed' });
  });

  it('cooldown not elapsed → stays OPEN', () => {
    expect(applyCooldown(open(), T0 + 29 * MINUTE + 59_000, LIMITS)).toEqual({ state: open() });
  });

  it('cooldown elapsed → HALF_OPEN with fresh counters; total_opens kept', () => {
    const update = applyCooldown(open(), T0 + 30 * MINUTE, LIMITS);
    expect(update.state).toMatchObject({
      state: 'HALF_OPEN',
      consecutive_no_progress: 0,
      consecutive_failures: 0,
      consecutive_same_error: 0,
      consecutive_permission_denials: 0,
      total_opens: 4,
      reason: 'Cooldown recovery: 30m elapsed',
      last_change: iso(T0 + 30 * MINUTE),
    });
    expect(update.state.opened_at).toBeUndefined();
    expect(update.transition).toEqual({ from: 'OPEN', to: 'HALF_OPEN', reason: 'Cooldown recovery: 30m elapsed' });
  });

  it('after the cooldown one more loop without progress does not re-open at once (U§15.8)', () => {
    const halfOpen = applyCooldown(open(), T0 + 45 * MINUTE, LIMITS).state;
    const update = recordIteration(halfOpen, outcome({ loop: 20 }), T0 + 46 * MINUTE, LIMITS);
    expect(update.state.state).toBe('HALF_OPEN');
    const recovered = recordIteration(update.state, outcome({ loop: 21, progress: true }), T0 + 47 * MINUTE, LIMITS);
    expect(recovered.state.state).toBe('CLOSED');
  });

  it('without opened_at the cooldown is measured from last_change', () => {
    const s = open({ opened_at: undefined, last_change: iso(T0 - 40 * MINUTE) });
    delete s.opened_at;
    expect(applyCooldown(s, T0, LIMITS).state.state).toBe('HALF_OPEN');
    expect(applyCooldown(open({ opened_at: 'garbage', last_change: iso(T0) }), T0 + 10 * MINUTE, LIMITS).state.state).toBe('OPEN');
  });

  it('with both timestamps missing it stays OPEN (unless the cooldown is 0)', () => {
    const s = open({ last_change: '' });
    delete s.opened_at;
    expect(applyCooldown(s, T0 + 999 * MINUTE, LIMITS)).toEqual({ state: s });
    expect(applyCooldown(s, T0, { ...LIMITS, cooldownMinutes: 0 }).state.state).toBe('HALF_OPEN');
  });

  it('a timestamp in the future (clock skew) stays OPEN', () => {
    const s = open({ opened_at: iso(T0 + 120 * MINUTE) });
    expect(applyCooldown(s, T0, LIMITS)).toEqual({ state: s });
    expect(applyCooldown(s, T0, { ...LIMITS, cooldownMinutes: 0 })).toEqual({ state: s });
  });

  it('CB_AUTO_RESET → CLOSED at once, keeping total_opens', () => {
    const update = applyCooldown(open(), T0 + MINUTE, { ...LIMITS, autoReset: true });
    expect(update.state).toMatchObject({
      state: 'CLOSED',
      total_opens: 4,
      consecutive_no_progress: 0,
      consecutive_failures: 0,
      reason: 'Auto-reset on startup (CB_AUTO_RESET=true)',
    });
    expect(update.state.opened_at).toBeUndefined();
    expect(update.transition).toEqual({ from: 'OPEN', to: 'CLOSED', reason: 'Auto-reset on startup (CB_AUTO_RESET=true)' });
  });

  it('CB_AUTO_RESET leaves a CLOSED circuit alone', () => {
    const s = closed();
    expect(applyCooldown(s, T0, { ...LIMITS, autoReset: true })).toEqual({ state: s });
  });
});

describe('cooldownRemainingMinutes', () => {
  it.each([
    [{ state: 'OPEN' as const, opened_at: iso(T0) }, T0 + 10 * MINUTE, 20],
    [{ state: 'OPEN' as const, opened_at: iso(T0) }, T0 + 50 * MINUTE, 0],
    [{ state: 'CLOSED' as const }, T0, undefined],
    [{ state: 'OPEN' as const, last_change: '' }, T0, undefined],
  ])('%j at +%i ms → %j', (overrides, now, remaining) => {
    expect(cooldownRemainingMinutes(withState(overrides), now, LIMITS)).toBe(remaining);
  });
});

describe('resetCircuit', () => {
  it('writes a fresh CLOSED state with counters and total_opens at 0', () => {
    const open = withState({ state: 'OPEN', consecutive_no_progress: 3, total_opens: 5, current_loop: 40, last_progress_loop: 30, opened_at: iso(T0) });
    const update = resetCircuit(open, T0 + MINUTE);
    expect(update.state).toEqual({ ...initialCircuit(T0 + MINUTE), reason: 'Manual reset via command line' });
    expect(update.transition).toEqual({ from: 'OPEN', to: 'CLOSED', reason: 'Manual reset via command line' });
  });
});

describe('circuit history', () => {
  it('appendHistory records every transition with timestamp and loop', () => {
    let history = appendHistory([], { from: 'CLOSED', to: 'HALF_OPEN', reason: 'a' }, 2, T0);
    history = appendHistory(history, { from: 'HALF_OPEN', to: 'OPEN', reason: 'b' }, 3, T0);
    expect(history).toEqual([
      { timestamp: iso(T0), loop: 2, from_state: 'CLOSED', to_state: 'HALF_OPEN', reason: 'a' },
      { timestamp: iso(T0), loop: 3, from_state: 'HALF_OPEN', to_state: 'OPEN', reason: 'b' },
    ]);
  });

  it(`is bounded to the last ${CIRCUIT_HISTORY_LIMIT} entries`, () => {
    let history = appendHistory([], { from: 'CLOSED', to: 'OPEN', reason: 'x' }, 0, T0);
    for (let loop = 1; loop <= 150; loop += 1) history = appendHistory(history, { from: 'OPEN', to: 'HALF_OPEN', reason: `r${loop}` }, loop, T0);
    expect(CIRCUIT_HISTORY_LIMIT).toBe(100);
    expect(history).toHaveLength(100);
    expect(history[0]?.loop).toBe(51);
    expect(history[99]?.loop).toBe(150);
  });
});
