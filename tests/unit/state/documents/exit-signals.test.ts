import { describe, expect, it } from 'vitest';
import { emptyExitSignals, recordAnalysis, type ExitSignals } from '../../../../src/core/exit-signals.js';
import type { Analysis } from '../../../../src/core/response-analyzer.js';
import { exitSignalsSchema } from '../../../../src/state/documents/exit-signals.js';
import { parseOrReason } from '../../../helpers/parse-document.js';
import { makeAnalysis } from '../../support/analysis.js';

function fold(analyses: Array<Partial<Analysis>>): ExitSignals {
  return analyses.reduce<ExitSignals>((s, a, i) => recordAnalysis(s, makeAnalysis({ loop: i + 1, ...a })), emptyExitSignals());
}

const normalizeExitSignals = (value: unknown) => parseOrReason(exitSignalsSchema, value);

describe('.exit_signals schema', () => {
  it.each([null, undefined, 42, 'text', [], [1, 2]])('rejects %j', (value) => {
    expect(typeof normalizeExitSignals(value)).toBe('string');
  });

  it.each([
    {},
    { test_only_loops: [], done_signals: [] },
    { test_only_loops: 'x', done_signals: [], completion_indicators: [] },
    { test_only_loops: [1.5], done_signals: [], completion_indicators: [] },
    { test_only_loops: ['1'], done_signals: [], completion_indicators: [] },
    { test_only_loops: [], done_signals: [null], completion_indicators: [] },
  ])('rejects malformed signal arrays %j, naming the list', (value) => {
    expect(normalizeExitSignals(value)).toMatch(
      /^(test_only_loops|done_signals|completion_indicators)(\[0\])? is (missing|not a list of loop numbers|not a whole number)$/,
    );
  });

  it("reads the original's file shape, filling our extra fields", () => {
    expect(normalizeExitSignals({ test_only_loops: [1], done_signals: [2, 3], completion_indicators: [3] })).toEqual({
      test_only_loops: [1],
      done_signals: [2, 3],
      completion_indicators: [3],
      recent: [],
      unaccepted_claims: 0,
    });
  });

  it('trims windows to the last five and repairs junk entries', () => {
    const value = {
      test_only_loops: [1, 2, 3, 4, 5, 6, 7],
      done_signals: [],
      completion_indicators: [],
      recent: [
        'junk',
        { loop: '1' },
        { loop: 2, exit_signal: 'true', explicit: 1, completion: true, test_only: null, progress: true },
        ...Array.from({ length: 6 }, (_, i) => ({ loop: 10 + i, exit_signal: true })),
      ],
      unaccepted_claims: 2,
    };
    const s = normalizeExitSignals(value);
    expect(typeof s).toBe('object');
    if (typeof s === 'string') return;
    expect(s.test_only_loops).toEqual([3, 4, 5, 6, 7]);
    expect(s.recent.map((e) => e.loop)).toEqual([11, 12, 13, 14, 15]);
    expect(s.recent[0]).toEqual({ loop: 11, exit_signal: true, explicit: false, completion: false, test_only: false, progress: false });
    expect(s.unaccepted_claims).toBe(2);
  });

  it('booleans must be real booleans', () => {
    const s = normalizeExitSignals({
      test_only_loops: [],
      done_signals: [],
      completion_indicators: [],
      recent: [{ loop: 2, exit_signal: 'true', explicit: 1, completion: true }],
    });
    if (typeof s === 'string') throw new Error(s);
    expect(s.recent).toEqual([{ loop: 2, exit_signal: false, explicit: false, completion: true, test_only: false, progress: false }]);
  });

  it.each([-1, 1.5, '3', null])('an unaccepted_claims of %j reads as 0', (claims) => {
    const s = normalizeExitSignals({ test_only_loops: [], done_signals: [], completion_indicators: [], unaccepted_claims: claims });
    if (typeof s === 'string') throw new Error(s);
    expect(s.unaccepted_claims).toBe(0);
  });

  it('round-trips what recordAnalysis produces', () => {
    const s = fold([{ isTestOnly: true }, { hasCompletionSignal: true, exitSignal: true, exitSignalExplicit: true }, { hasProgress: true }]);
    expect(normalizeExitSignals(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });
});
