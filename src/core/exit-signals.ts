import type { Analysis } from './response-analyzer.js';

/**
 * `.ralph/.exit_signals`: rolling evidence about completion. The first three
 * arrays are the original's shape (loop numbers, last 5 each); `recent`
 * and `unaccepted_claims` are ours and drive the exit rules.
 */
export interface SignalEntry {
  loop: number;
  exit_signal: boolean;
  explicit: boolean;
  completion: boolean;
  test_only: boolean;
  progress: boolean;
}

export interface ExitSignals {
  test_only_loops: number[];
  done_signals: number[];
  completion_indicators: number[];
  recent: SignalEntry[];
  /** Consecutive iterations that claimed completion without being allowed to exit. */
  unaccepted_claims: number;
}

export const SIGNAL_WINDOW = 5;

export function emptyExitSignals(): ExitSignals {
  return { test_only_loops: [], done_signals: [], completion_indicators: [], recent: [], unaccepted_claims: 0 };
}

const lastN = <T>(items: T[]): T[] => items.slice(-SIGNAL_WINDOW);

/** Whether the analysis claims the work is finished (and does not deny it explicitly). */
export function claimsCompletion(analysis: Analysis): boolean {
  if (analysis.exitSignalExplicit && !analysis.exitSignal) return false;
  return analysis.exitSignal || (analysis.mode === 'text' && analysis.hasCompletionSignal);
}

export function recordAnalysis(signals: ExitSignals, analysis: Analysis): ExitSignals {
  const loop = analysis.loop;
  return {
    test_only_loops: analysis.isTestOnly ? lastN([...signals.test_only_loops, loop]) : analysis.hasProgress ? [] : signals.test_only_loops,
    done_signals: analysis.hasCompletionSignal ? lastN([...signals.done_signals, loop]) : signals.done_signals,
    completion_indicators: analysis.exitSignal ? lastN([...signals.completion_indicators, loop]) : signals.completion_indicators,
    recent: lastN([
      ...signals.recent,
      {
        loop,
        exit_signal: analysis.exitSignal,
        explicit: analysis.exitSignalExplicit,
        completion: analysis.hasCompletionSignal,
        test_only: analysis.isTestOnly,
        progress: analysis.hasProgress,
      },
    ]),
    unaccepted_claims: signals.unaccepted_claims,
  };
}

/** After the exit decision: count claims that were not allowed to end the loop. */
export function recordClaimOutcome(signals: ExitSignals, claimed: boolean, accepted: boolean): ExitSignals {
  return { ...signals, unaccepted_claims: claimed && !accepted ? signals.unaccepted_claims + 1 : 0 };
}
