import { describe, expect, it } from 'vitest';
import { SIGNAL_WINDOW, claimsCompletion, emptyExitSignals, recordAnalysis, recordClaimOutcome, type ExitSignals } from '../../../src/core/exit-signals.js';
import type { Analysis } from '../../../src/core/response-analyzer.js';
import { makeAnalysis } from '../support/analysis.js';

function fold(analyses: Array<Partial<Analysis>>): ExitSignals {
  return analyses.reduce<ExitSignals>((s, a, i) => recordAnalysis(s, makeAnalysis({ loop: i + 1, ...a })), emptyExitSignals());
}

describe('recordAnalysis (U§4.8)', () => {
  it('starts empty', () => {
    expect(emptyExitSignals()).toEqual({ test_only_loops: [], done_signals: [], completion_indicators: [], recent: [], unaccepted_claims: 0 });
  });

  it('records each signal under its loop number', () => {
    const s = fold([{ isTestOnly: true }, { hasCompletionSignal: true }, { exitSignal: true, exitSignalExplicit: true, hasCompletionSignal: true }]);
    expect(s.test_only_loops).toEqual([1]);
    expect(s.done_signals).toEqual([2, 3]);
    expect(s.completion_indicators).toEqual([3]);
    expect(s.recent).toEqual([
      { loop: 1, exit_signal: false, explicit: false, completion: false, test_only: true, progress: false },
      { loop: 2, exit_signal: false, explicit: false, completion: true, test_only: false, progress: false },
      { loop: 3, exit_signal: true, explicit: true, completion: true, test_only: false, progress: false },
    ]);
  });

  it('progress clears the test-only run; a loop without either keeps it', () => {
    expect(fold([{ isTestOnly: true }, { isTestOnly: true }, { hasProgress: true }]).test_only_loops).toEqual([]);
    expect(fold([{ isTestOnly: true }, { isTestOnly: true }, {}]).test_only_loops).toEqual([1, 2]);
  });

  it('an EXIT_SIGNAL: false analysis adds no completion indicator', () => {
    const s = fold(Array.from({ length: 5 }, () => ({ exitSignal: false, exitSignalExplicit: true })));
    expect(s.completion_indicators).toEqual([]);
  });

  it(`every window keeps only the last ${SIGNAL_WINDOW}`, () => {
    const s = fold(Array.from({ length: 10 }, () => ({ isTestOnly: true, hasCompletionSignal: true, exitSignal: true })));
    expect(s.test_only_loops).toEqual([6, 7, 8, 9, 10]);
    expect(s.done_signals).toEqual([6, 7, 8, 9, 10]);
    expect(s.completion_indicators).toEqual([6, 7, 8, 9, 10]);
    expect(s.recent.map((e) => e.loop)).toEqual([6, 7, 8, 9, 10]);
  });

  it('does not change the signals it is given', () => {
    const before = fold([{ hasCompletionSignal: true }]);
    const copy = structuredClone(before);
    recordAnalysis(before, makeAnalysis({ loop: 2, exitSignal: true }));
    expect(before).toEqual(copy);
  });

  it('keeps the unaccepted claim count', () => {
    const s = recordAnalysis({ ...emptyExitSignals(), unaccepted_claims: 3 }, makeAnalysis());
    expect(s.unaccepted_claims).toBe(3);
  });
});

describe('claimsCompletion', () => {
  it.each([
    [{ exitSignal: true, exitSignalExplicit: true }, true],
    [{ exitSignal: true, exitSignalExplicit: false }, true],
    [{ exitSignal: false, exitSignalExplicit: true, hasCompletionSignal: true, status: 'COMPLETE' }, false],
    [{ mode: 'text' as const, hasCompletionSignal: true }, true],
    [{ mode: 'json' as const, hasCompletionSignal: true }, false],
    [{ mode: 'text' as const, hasCompletionSignal: true, exitSignalExplicit: true, exitSignal: false }, false],
    [{}, false],
  ])('%j → %s', (overrides, claims) => {
    expect(claimsCompletion(makeAnalysis(overrides))).toBe(claims);
  });
});

describe('recordClaimOutcome', () => {
  it.each([
    [2, true, false, 3],
    [2, true, true, 0],
    [2, false, false, 0],
    [0, true, false, 1],
  ])('claims %i, claimed %s, accepted %s → %i', (before, claimed, accepted, after) => {
    expect(recordClaimOutcome({ ...emptyExitSignals(), unaccepted_claims: before }, claimed, accepted).unaccepted_claims).toBe(after);
  });
});
