import { decideIterationExit, isPlanComplete } from '../core/exit-detection.js';
import { claimsCompletion, recordAnalysis, recordClaimOutcome } from '../core/exit-signals.js';
import type { FixPlanSummary } from '../core/fix-plan.js';
import type { Analysis } from '../core/response-analyzer.js';
import type { LoopRun, Step } from './loop-run.js';
import type { GateRun } from './verify-gate.js';

/**
 * plan_complete, decided before a call is spent. With a verify gate the plan
 * also needs a passing run on the current tree; a failure is fed back instead.
 */
export async function checkPlanComplete(s: LoopRun, plan: FixPlanSummary | undefined): Promise<Step> {
  // An ad-hoc task is judged by its own gate, not by the project's fix_plan.md.
  if (s.options.task) return undefined;
  // A rejected review's findings go to a worker call first, however complete the plan looks.
  if (s.state.reviewFindings) return undefined;
  if (!isPlanComplete(plan, s.state.lastAnalysis)) return undefined;
  const gate = s.deps.gate;
  if (gate?.active()) {
    const result = await gate.verifyCurrentTree(s.state.loop);
    s.state.verify = gate.status();
    if (!result.passed) {
      s.notice({ code: 'plan.verify_fails' });
      return result.decision === 'escalated_abort' ? { stop: 'verify_aborted' } : undefined;
    }
  }
  return { stop: 'plan_complete', message: `all ${plan?.checked ?? 0} blocking tasks in fix_plan.md are checked` };
}

/** The exit rules of core/exit-detection.ts after an analyzed iteration, with .exit_signals kept up to date. */
export function decideExit(s: LoopRun, analysis: Analysis, gate: GateRun | undefined): Step {
  const { store } = s.deps;
  s.state.signals = recordAnalysis(s.state.signals, analysis);
  const verdict = decideIterationExit(s.state.signals, analysis, {
    configured: s.deps.gate?.active() ?? false,
    ...(gate && gate.decision !== 'not_run' ? { passed: gate.passed } : {}),
    workInRun: s.state.workInRun,
  });
  s.state.signals = recordClaimOutcome(s.state.signals, claimsCompletion(analysis), verdict.kind === 'complete');
  store.saveExitSignals(s.state.signals);
  const sig = s.state.signals;
  s.notice({
    code: 'exit.check',
    testLoops: sig.test_only_loops.length,
    doneSignals: sig.done_signals.length,
    completionIndicators: sig.completion_indicators.length,
    unacceptedClaims: sig.unaccepted_claims,
  });
  switch (verdict.kind) {
    case 'permission_denied':
      return { stop: 'permission_denied', message: verdict.deniedCommands.join(', ') };
    case 'complete':
      return { stop: verdict.reason };
    case 'safety_circuit_breaker':
      return { stop: 'safety_circuit_breaker', message: `${verdict.claims} iterations claimed completion without being allowed to exit` };
    case 'continue':
      if (verdict.note) s.notice({ code: 'exit.note', note: verdict.note });
      return undefined;
  }
}

/**
 * In task mode the task's own verify gate decides: a pass ends it, unless the
 * agent said EXIT_SIGNAL: false or nothing has changed in the run yet (a
 * command that already passed proves nothing); without loop:true one failure
 * ends it too.
 */
export function decideTaskExit(s: LoopRun, gate: GateRun | undefined, analysis: Analysis | undefined): Step {
  const task = s.options.task;
  if (!task || !gate || gate.decision === 'not_run') return undefined;
  if (gate.passed) {
    if (analysis?.exitSignalExplicit && !analysis.exitSignal) {
      s.notice({ code: 'task.continues', why: 'exit_signal_false' });
      return undefined;
    }
    if (!s.state.workInRun) {
      s.notice({ code: 'task.continues', why: 'no_change' });
      return undefined;
    }
    return { stop: 'project_complete', message: `the task's verify command passed (attempt ${gate.attempt})` };
  }
  if (task.singleShot) return { stop: 'verify_aborted', message: 'the verify command failed on the single attempt (add loop:true to keep trying)' };
  return undefined;
}
