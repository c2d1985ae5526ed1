import { describe, expect, it } from 'vitest';
import { RECOVERED_MESSAGE, appendHistory, applyCooldown, initialCircuit, recordIteration } from '../../../src/core/circuit-breaker.js';
import {
  DENIED,
  FAILED,
  LIMITS,
  MINUTE,
  NO_PROGRESS,
  PROGRESS,
  SAME_ERROR,
  T0,
  closed,
  feed,
  finalState,
  iso,
  outcome,
  withState,
} from '../support/circuit.js';

describe('initialCircuit', () => {
  it('is CLOSED with zero counters and the original field names', () => {
    expect(initialCircuit(T0)).toEqual({
      state: 'CLOSED',
      last_change: '2026-01-15T12:00:00+00:00',
      consecutive_no_progress: 0,
      consecutive_same_error: 0,
      consecutive_permission_denials: 0,
      consecutive_failures: 0,
      last_progress_loop: 0,
      total_opens: 0,
      reason: '',
      current_loop: 0,
    });
  });
});

describe('recordIteration: CLOSED (U§6.3, U§13.7)', () => {
  it('one loop without progress stays CLOSED and counts it', () => {
    const [u] = feed(closed(), [NO_PROGRESS]);
    expect(u?.state.state).toBe('CLOSED');
    expect(u?.state.consecutive_no_progress).toBe(1);
    expect(u?.transition).toBeUndefined();
  });

  it('two loops without progress → HALF_OPEN (monitoring)', () => {
    const updates = feed(closed(), [NO_PROGRESS, NO_PROGRESS]);
    expect(updates[1]?.transition).toEqual({ from: 'CLOSED', to: 'HALF_OPEN', reason: 'Monitoring: 2 loops without progress' });
    expect(finalState(updates)).toMatchObject({ state: 'HALF_OPEN', reason: 'Monitoring: 2 loops without progress', last_change: iso(T0 + MINUTE) });
  });

  it('three loops without progress → OPEN', () => {
    const updates = feed(closed(), [NO_PROGRESS, NO_PROGRESS, NO_PROGRESS]);
    const s = finalState(updates);
    expect(s.state).toBe('OPEN');
    expect(s.total_opens).toBe(1);
    expect(s.opened_at).toBe(iso(T0 + 2 * MINUTE));
    expect(s.last_change).toBe(s.opened_at);
    expect(updates[2]?.transition).toEqual({ from: 'HALF_OPEN', to: 'OPEN', reason: 'No recovery, opening circuit after 3 loops' });
  });

  it('a higher HALF_OPEN entry than the open threshold opens straight from CLOSED', () => {
    const updates = feed(closed(), [NO_PROGRESS, NO_PROGRESS, NO_PROGRESS], { ...LIMITS, halfOpenAfter: 5 });
    expect(updates[2]?.transition).toEqual({ from: 'CLOSED', to: 'OPEN', reason: 'No progress detected in 3 consecutive loops' });
  });

  it('progress resets the no-progress counter and records the loop', () => {
    const s = finalState(feed(closed(), [NO_PROGRESS, PROGRESS]));
    expect(s).toMatchObject({ state: 'CLOSED', consecutive_no_progress: 0, last_progress_loop: 2, current_loop: 2 });
  });

  it('5 consecutive failed calls → OPEN (U§15.6)', () => {
    const updates = feed(closed(), [FAILED, FAILED, FAILED, FAILED, FAILED]);
    expect(updates.slice(0, 4).every((u) => u.state.state === 'CLOSED')).toBe(true);
    expect(updates[3]?.state.consecutive_failures).toBe(4);
    expect(updates[4]?.transition).toEqual({ from: 'CLOSED', to: 'OPEN', reason: 'Agent call failed in 5 consecutive loops' });
  });

  it('failures do not count as no-progress loops, and a success resets them', () => {
    const updates = feed(closed(), [FAILED, FAILED, FAILED, FAILED, PROGRESS, FAILED]);
    expect(updates.every((u) => u.state.consecutive_no_progress === 0)).toBe(true);
    expect(finalState(updates)).toMatchObject({ state: 'CLOSED', consecutive_failures: 1 });
  });

  it('the same error in 5 consecutive loops → OPEN', () => {
    const updates = feed(closed(), [SAME_ERROR, SAME_ERROR, SAME_ERROR, SAME_ERROR, SAME_ERROR]);
    expect(updates[3]?.state).toMatchObject({ state: 'CLOSED', consecutive_same_error: 4 });
    expect(updates[4]?.transition).toEqual({ from: 'CLOSED', to: 'OPEN', reason: 'Same error repeated in 5 consecutive loops' });
  });

  it('different errors each loop never open the circuit ("same error" means the same lines)', () => {
    const differing = { progress: true, hasErrors: true, errorsRepeat: false };
    const s = finalState(
      feed(
        closed(),
        Array.from({ length: 8 }, () => differing),
      ),
    );
    expect(s).toMatchObject({ state: 'CLOSED', consecutive_same_error: 1 });
  });

  it('a loop without errors resets the same-error counter', () => {
    expect(finalState(feed(closed(), [SAME_ERROR, SAME_ERROR, PROGRESS])).consecutive_same_error).toBe(0);
  });

  it('permission denials in 2 consecutive loops → OPEN with ALLOWED_TOOLS guidance', () => {
    const updates = feed(closed(), [DENIED, DENIED]);
    expect(updates[0]?.state.state).toBe('CLOSED');
    expect(updates[1]?.transition).toEqual({
      from: 'CLOSED',
      to: 'OPEN',
      reason: 'Permission denied in 2 consecutive loops - update ALLOWED_TOOLS in .ralphrc',
    });
  });

  it('a loop without a denial resets the denial counter', () => {
    expect(finalState(feed(closed(), [DENIED, PROGRESS, DENIED])).state).toBe('CLOSED');
  });

  it('a loop that only asked questions is neither progress nor stagnation', () => {
    const questions = { askingQuestions: true };
    const updates = feed(closed(), [NO_PROGRESS, questions, questions, questions, questions]);
    expect(updates.every((u) => u.state.state === 'CLOSED')).toBe(true);
    expect(finalState(updates)).toMatchObject({ consecutive_no_progress: 1, last_progress_loop: 0 });
  });

  it('tracks the current loop, even huge loop numbers', () => {
    expect(finalState(feed(closed(), [PROGRESS], LIMITS, 9999)).current_loop).toBe(9999);
  });

  it('uses configured thresholds', () => {
    const s = finalState(feed(closed(), [NO_PROGRESS, NO_PROGRESS, NO_PROGRESS, NO_PROGRESS], { ...LIMITS, noProgress: 5, halfOpenAfter: 4 }));
    expect(s.state).toBe('HALF_OPEN');
  });

  it('does not change the state it is given', () => {
    const start = closed();
    const copy = structuredClone(start);
    feed(start, [NO_PROGRESS, NO_PROGRESS, NO_PROGRESS]);
    expect(start).toEqual(copy);
  });
});

describe('recordIteration: HALF_OPEN', () => {
  it('seed 002 "Circuit breaker auto-recovery": HALF_OPEN + progress at loop 13 → CLOSED', () => {
    const halfOpen = withState({
      state: 'HALF_OPEN',
      consecutive_no_progress: 2,
      last_progress_loop: 10,
      current_loop: 12,
      total_opens: 1,
      reason: 'Monitoring: 2 loops without progress',
    });
    const update = recordIteration(halfOpen, outcome({ loop: 13, progress: true }), T0, LIMITS);
    expect(update.state).toMatchObject({
      state: 'CLOSED',
      consecutive_no_progress: 0,
      consecutive_same_error: 0,
      consecutive_failures: 0,
      consecutive_permission_denials: 0,
      last_progress_loop: 13,
      current_loop: 13,
      total_opens: 1,
      reason: 'Progress detected, circuit recovered',
      last_change: iso(T0),
    });
    expect(update.state.opened_at).toBeUndefined();
    expect(update.transition).toEqual({ from: 'HALF_OPEN', to: 'CLOSED', reason: 'Progress detected, circuit recovered' });
    expect(RECOVERED_MESSAGE).toBe('✅ CIRCUIT BREAKER: Normal Operation - Progress detected, circuit recovered');
    expect(RECOVERED_MESSAGE.endsWith(update.transition?.reason ?? '?')).toBe(true);
    const history = appendHistory([], update.transition ?? { from: 'CLOSED', to: 'CLOSED', reason: '' }, 13, T0);
    expect(history).toEqual([{ timestamp: iso(T0), loop: 13, from_state: 'HALF_OPEN', to_state: 'CLOSED', reason: 'Progress detected, circuit recovered' }]);
  });

  it('HALF_OPEN + progress but the verify gate failed → stays HALF_OPEN (seed 002 edge case)', () => {
    const halfOpen = withState({ state: 'HALF_OPEN', consecutive_no_progress: 2 });
    const update = recordIteration(halfOpen, outcome({ loop: 5, progress: true, verifyFailed: true }), T0, LIMITS);
    expect(update.state.state).toBe('HALF_OPEN');
    expect(update.transition).toBeUndefined();
  });

  it('HALF_OPEN + another loop without progress → OPEN', () => {
    const update = recordIteration(withState({ state: 'HALF_OPEN', consecutive_no_progress: 2 }), outcome({ loop: 3 }), T0, LIMITS);
    expect(update.transition).toEqual({ from: 'HALF_OPEN', to: 'OPEN', reason: 'No recovery, opening circuit after 3 loops' });
  });

  it('HALF_OPEN watches failures', () => {
    const update = recordIteration(
      withState({ state: 'HALF_OPEN', consecutive_failures: 4, consecutive_no_progress: 2 }),
      outcome({ loop: 9, failed: true }),
      T0,
      LIMITS,
    );
    expect(update.transition).toEqual({ from: 'HALF_OPEN', to: 'OPEN', reason: 'Agent call failed in 5 consecutive loops' });
  });

  it('HALF_OPEN watches the same error', () => {
    const update = recordIteration(
      withState({ state: 'HALF_OPEN', consecutive_same_error: 4, consecutive_no_progress: 2 }),
      outcome({ loop: 9, hasErrors: true, errorsRepeat: true, askingQuestions: true }),
      T0,
      LIMITS,
    );
    expect(update.transition).toEqual({ from: 'HALF_OPEN', to: 'OPEN', reason: 'Same error repeated in 5 consecutive loops' });
  });

  it('HALF_OPEN watches permission denials', () => {
    const update = recordIteration(
      withState({ state: 'HALF_OPEN', consecutive_permission_denials: 1 }),
      outcome({ loop: 4, progress: true, permissionDenied: true }),
      T0,
      LIMITS,
    );
    expect(update.state.state).toBe('OPEN');
    expect(update.transition?.reason).toContain('Permission denied in 2 consecutive loops');
  });

  it('a failed call with a progress flag is not progress and does not recover', () => {
    const update = recordIteration(
      withState({ state: 'HALF_OPEN', consecutive_no_progress: 2 }),
      outcome({ loop: 4, progress: true, failed: true }),
      T0,
      LIMITS,
    );
    expect(update.state.state).toBe('HALF_OPEN');
    expect(update.state.consecutive_failures).toBe(1);
  });

  it('a question loop in HALF_OPEN changes nothing', () => {
    const halfOpen = withState({ state: 'HALF_OPEN', consecutive_no_progress: 2 });
    const update = recordIteration(halfOpen, outcome({ loop: 4, askingQuestions: true }), T0, LIMITS);
    expect(update.state).toMatchObject({ state: 'HALF_OPEN', consecutive_no_progress: 2 });
    expect(update.transition).toBeUndefined();
  });
});

describe('recordIteration: OPEN', () => {
  it('OPEN stays OPEN whatever happens, keeping its reason and opened_at', () => {
    const open = withState({ state: 'OPEN', reason: 'No progress detected in 3 consecutive loops', opened_at: iso(T0 - MINUTE), total_opens: 2 });
    for (const o of [PROGRESS, NO_PROGRESS, FAILED, SAME_ERROR, DENIED]) {
      const update = recordIteration(open, outcome({ loop: 7, ...o }), T0, LIMITS);
      expect(update.transition).toBeUndefined();
      expect(update.state).toMatchObject({ state: 'OPEN', reason: open.reason, opened_at: open.opened_at, total_opens: 2, current_loop: 7 });
    }
  });

  it('each new opening counts in total_opens', () => {
    const once = finalState(feed(closed(), [NO_PROGRESS, NO_PROGRESS, NO_PROGRESS]));
    const halfOpen = applyCooldown(once, T0 + 60 * MINUTE, LIMITS).state;
    const again = finalState(feed(halfOpen, [NO_PROGRESS, NO_PROGRESS, NO_PROGRESS], LIMITS, 10));
    expect(again).toMatchObject({ state: 'OPEN', total_opens: 2 });
  });
});
