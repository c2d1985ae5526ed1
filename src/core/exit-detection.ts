import type { ExitSignals } from './exit-signals.js';
import { claimsCompletion } from './exit-signals.js';
import type { FixPlanSummary } from './fix-plan.js';
import type { Analysis } from './response-analyzer.js';

/**
 * The exit rules in one place, as the original documents them (not as its
 * shadowed checks happen to run): stagnation first, then completion, which
 * an explicit EXIT_SIGNAL: false always blocks and which needs work done.
 */
export type CompletionReason = 'project_complete' | 'completion_signals' | 'test_saturation';

export interface VerifyEvidence {
  /** A verify command is configured (and not skipped). */
  configured: boolean;
  /** Result of the verify run on the current tree, if one ran. */
  passed?: boolean;
  /**
   * Something changed in this run (files, commits, ticked tasks). False blocks
   * every completion reason but test saturation: an agent that did nothing has
   * not finished anything. Omitted when the caller cannot know.
   */
  workInRun?: boolean;
}

export type IterationExit =
  | { kind: 'permission_denied'; deniedCommands: string[] }
  | { kind: 'complete'; reason: CompletionReason }
  | { kind: 'safety_circuit_breaker'; claims: number }
  | { kind: 'continue'; claimed: boolean; refusedByVerify: boolean; note?: string };

export interface ExitThresholds {
  /** EXIT_SIGNAL: true needed within the window (2). */
  exitSignals: number;
  /** Completion signals needed within the window in text mode (2). */
  completionSignals: number;
  /** Consecutive test-only iterations (3). */
  testOnly: number;
  /** Consecutive unaccepted completion claims before the safety breaker (5). */
  safetyClaims: number;
}

export const DEFAULT_EXIT_THRESHOLDS: ExitThresholds = { exitSignals: 2, completionSignals: 2, testOnly: 3, safetyClaims: 5 };

/** Test saturation is stagnation, not a claim: it ends the loop whatever EXIT_SIGNAL says. */
function isTestSaturated(signals: ExitSignals, t: ExitThresholds): boolean {
  const tail = signals.recent.slice(-t.testOnly);
  return tail.length >= t.testOnly && tail.every((e) => e.test_only);
}

function completionCandidate(signals: ExitSignals, latest: Analysis, verify: VerifyEvidence, t: ExitThresholds): CompletionReason | undefined {
  const recent = signals.recent;
  const explicitFalse = latest.exitSignalExplicit && !latest.exitSignal;
  if (explicitFalse) return undefined;
  if (latest.exitSignal) {
    const count = recent.filter((e) => e.exit_signal).length;
    if (count >= t.exitSignals || (verify.configured && verify.passed === true)) return 'project_complete';
  }
  // An answer that said EXIT_SIGNAL: false ("this task is done, the project is not") is no completion signal.
  const completions = recent.filter((e) => e.completion && !(e.explicit && !e.exit_signal)).length;
  if (latest.mode === 'text' && completions >= t.completionSignals) return 'completion_signals';
  return undefined;
}

function accept(reason: CompletionReason, signals: ExitSignals, verify: VerifyEvidence, t: ExitThresholds): IterationExit {
  if (!verify.configured || verify.passed === true) return { kind: 'complete', reason };
  if (signals.unaccepted_claims + 1 >= t.safetyClaims) return { kind: 'safety_circuit_breaker', claims: signals.unaccepted_claims + 1 };
  return { kind: 'continue', claimed: true, refusedByVerify: true, note: `${reason} refused: the verify command fails on the current tree` };
}

/**
 * Decides whether the loop ends after an analyzed iteration.
 * `signals` already include the latest analysis (recordAnalysis).
 */
export function decideIterationExit(
  signals: ExitSignals,
  latest: Analysis,
  verify: VerifyEvidence,
  t: ExitThresholds = DEFAULT_EXIT_THRESHOLDS,
): IterationExit {
  if (latest.hasPermissionDenials) return { kind: 'permission_denied', deniedCommands: latest.deniedCommands };
  if (isTestSaturated(signals, t)) return accept('test_saturation', signals, verify, t);
  const claimed = claimsCompletion(latest);
  const candidate = completionCandidate(signals, latest, verify, t);
  if (candidate !== undefined && verify.workInRun === false) {
    if (signals.unaccepted_claims + 1 >= t.safetyClaims) return { kind: 'safety_circuit_breaker', claims: signals.unaccepted_claims + 1 };
    return {
      kind: 'continue',
      claimed: true,
      refusedByVerify: false,
      note: `${candidate} refused: nothing has changed in this run yet (no files, commits or ticked tasks)`,
    };
  }
  if (candidate !== undefined) return accept(candidate, signals, verify, t);
  if (claimed && signals.unaccepted_claims + 1 >= t.safetyClaims) return { kind: 'safety_circuit_breaker', claims: signals.unaccepted_claims + 1 };
  const result: IterationExit = { kind: 'continue', claimed, refusedByVerify: false };
  if (latest.exitSignalExplicit && !latest.exitSignal && latest.status === 'COMPLETE')
    result.note = 'STATUS: COMPLETE with EXIT_SIGNAL: false — the loop continues';
  return result;
}

/**
 * plan_complete is decided before a call is spent: every blocking task is
 * checked, unless the latest analysis said EXIT_SIGNAL: false.
 */
export function isPlanComplete(plan: FixPlanSummary | undefined, latest: Analysis | undefined): boolean {
  if (!plan || !plan.complete) return false;
  if (latest && latest.exitSignalExplicit && !latest.exitSignal) return false;
  return true;
}
