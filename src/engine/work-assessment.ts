import type { AgentOutcome, AgentResult } from '../agent-result.js';
import type { FixPlanSummary } from '../core/fix-plan.js';
import type { Analysis, ProgressFacts } from '../core/response-analyzer.js';
import { analyzeIteration, errorLinesOf } from './analysis-step.js';
import { updateCircuit } from './circuit-step.js';
import { decideExit, decideTaskExit } from './exit-step.js';
import { recordIterationEnd } from './iteration-record.js';
import { clearApiRetries, handleApiTransient, handleUsageLimit } from './limit-handlers.js';
import type { LoopRun, Step } from './loop-run.js';
import type { GateRun } from './verify-gate.js';

/** An agent call as the iteration made it. */
export interface CallMade {
  loop: number;
  started: number;
  agentRun: AgentResult;
  outcome: AgentOutcome;
  outputLogPath: string;
  planBefore: FixPlanSummary | undefined;
  /** What the call changed, already being measured (started as soon as the call ended). */
  measuring?: Promise<Measured>;
}

type Measured = Awaited<ReturnType<LoopRun['deps']['probe']['measure']>>;

/**
 * Starts measuring what a finished call changed. git status then runs while the loop does its
 * own bookkeeping of the call (its output logs, its usage, the fix plan): that work no longer
 * waits for git, nor git for it. Ralph's own files never count, so what that bookkeeping
 * writes cannot change the measure. A failure still surfaces where the measure is awaited.
 */
export function startMeasuring(s: LoopRun): Promise<Measured> {
  const measuring = s.deps.probe.measure();
  // Handled where it is awaited (assessWork); this only keeps an early failure from being reported as unhandled.
  measuring.catch(() => undefined);
  return measuring;
}

type WorkKind = Extract<AgentOutcome['kind'], 'success' | 'timeout' | 'failed'>;

/** Calls whose work is looked at: finished, timed out, or failed as a normal attempt. */
export function isUsableKind(outcome: AgentOutcome): outcome is Extract<AgentOutcome, { kind: WorkKind }> {
  return outcome.kind === 'success' || outcome.kind === 'timeout' || outcome.kind === 'failed';
}

/** A call that did no work to look at: interrupted (or cut short by Ctrl+C), fatal, or a limit the loop waits out. */
export function settleCallWithoutWork(s: LoopRun, call: CallMade): Promise<Step> | Step {
  const { outcome } = call;
  const end = { loop: call.loop, started: call.started, agentRun: call.agentRun };
  if (outcome.kind === 'interrupted' || s.deps.interrupt.aborted || isUsableKind(outcome)) {
    recordIterationEnd(s, { ...end, outcome: 'interrupted' });
    return { stop: 'interrupted' };
  }
  switch (outcome.kind) {
    case 'fatal':
      recordIterationEnd(s, { ...end, outcome: 'failed' });
      return { stop: 'agent_failure', message: outcome.message };
    case 'unrecoverable':
      recordIterationEnd(s, { ...end, outcome: 'failed' });
      return { stop: 'agent_failure', message: `${s.deps.backend.displayName} cannot continue: ${outcome.message}\n${outcome.advice}` };
    case 'usage_limit':
      recordIterationEnd(s, { ...end, outcome: 'usage_limit' });
      return handleUsageLimit(s, outcome);
    case 'api_transient':
      recordIterationEnd(s, { ...end, outcome: 'api_error' });
      return handleApiTransient(s, outcome);
  }
}

export interface Work {
  progress: ProgressFacts;
  /** The call's answer counts: it finished, or timed out having changed something. */
  usable: boolean;
  productive: boolean;
  analysis?: Analysis;
  gate?: GateRun;
}

/** What the call changed, what the agent said about it, and what the verify gate makes of it. */
export async function assessWork(s: LoopRun, call: CallMade): Promise<Work> {
  const { config } = s;
  const { store, probe, gate } = s.deps;
  const { outcome, loop } = call;
  if (outcome.kind === 'success') clearApiRetries(s);
  const measuring = call.measuring ?? probe.measure();
  const planAfter = store.readFixPlan(config.optionalSections);
  const measured = await measuring;
  const progress: ProgressFacts = { ...measured, tasksChecked: Math.max(0, (planAfter?.checked ?? 0) - (call.planBefore?.checked ?? 0)) };
  const productive = outcome.kind === 'timeout' && (progress.filesChanged > 0 || progress.tasksChecked > 0);
  if (outcome.kind === 'timeout') {
    s.notice({ code: 'call.timeout', timeoutMinutes: config.timeoutMinutes, productive, filesChanged: progress.filesChanged });
  }
  if (outcome.kind === 'failed') {
    s.notice({ code: 'call.failed', message: outcome.message, outputLogPath: call.outputLogPath });
    if (outcome.resetSession) store.resetSession('api_error_is_error_true', loop, s.now);
  }

  if (progress.filesChanged > 0 || progress.committed || progress.tasksChecked > 0) s.state.workInRun = true;
  const usable = outcome.kind === 'success' || productive;
  const analysis = usable ? analyzeIteration(s, loop, call.agentRun, progress, call.outputLogPath) : undefined;
  s.state.errorHistory = [errorLinesOf(call.agentRun, outcome, analysis), ...s.state.errorHistory].slice(0, 5);
  store.saveErrorHistory(s.state.errorHistory);

  const gateRun = usable && gate ? await gate.afterAgent(loop) : undefined;
  if (gateRun) {
    s.state.verify = gate?.status() ?? null;
    if (gateRun.rolledBack) probe.invalidate();
  }
  // A failed call that changed files is a failed attempt: its half-done work must not silently become the next baseline.
  if (outcome.kind === 'failed' && gate && (await gate.afterFailedCall(loop, progress.filesChanged))) probe.invalidate();
  if (analysis && progress.method === 'none' && analysis.hasProgress) s.state.workInRun = true;
  return { progress, usable, productive, ...(analysis ? { analysis } : {}), ...(gateRun ? { gate: gateRun } : {}) };
}

/**
 * The verdict of an iteration with work: the exit rules, the circuit breaker, the iteration's
 * record, then the first reason to stop in order of precedence (undefined: go on).
 */
export function decideAfterWork(s: LoopRun, call: CallMade, work: Work): Step {
  const { analysis, gate: gateRun, progress } = work;
  const exit = analysis ? decideExit(s, analysis, gateRun) : undefined;
  // Test saturation is stagnation the exit rules recognise: it ends the loop before the breaker counts it.
  const stagnation = exit?.stop === 'test_saturation' ? exit : undefined;
  const circuitStop = stagnation ? undefined : updateCircuit(s, call.loop, work.usable, analysis, gateRun);
  const kind = call.outcome.kind;
  const outcome = kind === 'timeout' ? (work.productive ? 'timeout_productive' : 'timeout') : kind === 'success' ? 'success' : 'failed';
  recordIterationEnd(s, {
    loop: call.loop,
    started: call.started,
    agentRun: call.agentRun,
    outcome,
    ...(analysis ? { analysis } : {}),
    progress,
    ...(gateRun ? { gate: gateRun } : {}),
  });
  const rollbackFailure = s.deps.gate?.rollbackFailure();
  if (rollbackFailure) return { stop: 'rollback_failed', message: rollbackFailure };
  if (gateRun?.decision === 'escalated_abort')
    return { stop: 'verify_aborted', message: `verify command failed ${gateRun.attempt}/${gateRun.maxAttempts} times` };
  if (stagnation) return stagnation;
  if (circuitStop) return circuitStop;
  return decideTaskExit(s, gateRun, analysis) ?? exit;
}
