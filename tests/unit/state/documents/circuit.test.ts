import { describe, expect, it } from 'vitest';
import { circuitHistorySchema, circuitStateSchema } from '../../../../src/state/documents/circuit.js';
import { parseOrReason } from '../../../helpers/parse-document.js';
import { NO_PROGRESS, closed, feed, finalState } from '../../support/circuit.js';

const normalizeCircuit = (value: unknown) => parseOrReason(circuitStateSchema, value);
const normalizeHistory = (value: unknown) => parseOrReason(circuitHistorySchema, value);

describe('.circuit_breaker_state schema', () => {
  it('accepts a state written in lower case', () => {
    expect(normalizeCircuit({ state: 'half_open' })).toMatchObject({ state: 'HALF_OPEN' });
  });

  it.each([null, undefined, 'OPEN', 3, [], { state: 'BROKEN' }, {}])('rejects %j with a reason', (value) => {
    expect(typeof normalizeCircuit(value)).toBe('string');
  });

  it("reads the original's state file", () => {
    const file = {
      state: 'OPEN',
      last_change: '2026-01-15T12:00:00+00:00',
      consecutive_no_progress: 3,
      consecutive_same_error: 0,
      consecutive_permission_denials: 0,
      last_progress_loop: 7,
      total_opens: 1,
      reason: 'No progress detected in 3 consecutive loops',
      current_loop: 10,
      opened_at: '2026-01-15T12:00:00+00:00',
    };
    expect(normalizeCircuit(file)).toEqual({ ...file, consecutive_failures: 0 });
  });

  it('repairs damaged fields', () => {
    expect(
      normalizeCircuit({
        state: 'HALF_OPEN',
        consecutive_no_progress: -1,
        consecutive_failures: 2.5,
        total_opens: '3',
        reason: 5,
        current_loop: null,
        last_change: 7,
        opened_at: 9,
      }),
    ).toEqual({
      state: 'HALF_OPEN',
      last_change: '',
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

  it('round-trips a state produced by recordIteration', () => {
    const s = finalState(feed(closed(), [NO_PROGRESS, NO_PROGRESS, NO_PROGRESS]));
    expect(normalizeCircuit(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });
});

describe('.circuit_breaker_history schema', () => {
  it.each([null, {}, 'x', 5])('rejects %j', (value) => {
    expect(typeof normalizeHistory(value)).toBe('string');
  });

  it('drops junk entries and repairs damaged ones', () => {
    expect(
      normalizeHistory([
        'junk',
        3,
        null,
        { timestamp: 't', loop: 2, from_state: 'CLOSED', to_state: 'OPEN', reason: 'r' },
        { loop: -4, from_state: 'nope', to_state: 'HALF_OPEN' },
      ]),
    ).toEqual([
      { timestamp: 't', loop: 2, from_state: 'CLOSED', to_state: 'OPEN', reason: 'r' },
      { timestamp: '', loop: 0, from_state: 'CLOSED', to_state: 'HALF_OPEN', reason: '' },
    ]);
  });

  it('keeps only the last 100 of an old unbounded history', () => {
    const old = Array.from({ length: 250 }, (_, i) => ({ timestamp: 't', loop: i, from_state: 'CLOSED', to_state: 'OPEN', reason: '' }));
    const history = normalizeHistory(old);
    if (typeof history === 'string') throw new Error(history);
    expect(history).toHaveLength(100);
    expect(history[0]?.loop).toBe(150);
  });
});
