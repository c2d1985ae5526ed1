import { describeMissingCheckpoint } from '../core/checkpoint-policy.js';
import { isPlanComplete } from '../core/exit-detection.js';
import type { FixPlanSummary } from '../core/fix-plan.js';
import { checkCall } from '../core/rate-limiter.js';
import { formatDuration } from '../core/time-format.js';
import { runTokens } from '../core/token-budget.js';
import { checkPlanComplete } from './exit-step.js';
import { waitForCallBudget } from './limit-handlers.js';
import type { LoopRun, Step } from './loop-run.js';

/** Checks that need no agent call; returns a reason to stop, if any. */
function preflight(s: LoopRun): Step {
  const { config } = s;
  const { store } = s.deps;
  if (s.deps.interrupt.aborted) return { stop: 'interrupted' };
  if (store.stopRequested()) return { stop: 'stop_requested' };
  const loops = s.state.loop;
  if (s.options.dryRun && loops >= (config.maxLoops || 3)) return { stop: 'dry_run' };
  if (config.maxLoops > 0 && loops >= config.maxLoops) return { stop: 'max_loops', message: `reached --max-loops ${config.maxLoops}` };
  const ranMs = s.now - s.state.startedAt;
  if (config.maxRuntimeMinutes > 0 && ranMs >= config.maxRuntimeMinutes * 60_000) {
    return { stop: 'max_runtime', message: `ran for ${formatDuration(ranMs / 1000)} (limit ${config.maxRuntimeMinutes} min)` };
  }
  if (config.maxCostUsd > 0 && s.state.totals.cost_usd >= config.maxCostUsd) {
    return { stop: 'max_cost', message: `spent $${s.state.totals.cost_usd.toFixed(4)} (limit $${config.maxCostUsd})` };
  }
  const tokens = runTokens(s.state.totals);
  if (config.maxTokens > 0 && tokens >= config.maxTokens) {
    return { stop: 'max_tokens', message: `used ${tokens} tokens, cache reads and writes included (limit ${config.maxTokens})` };
  }
  const missing = store.missingProjectFiles(s.options.task !== undefined, s.options.promptPath);
  if (missing.length > 0) {
    return {
      stop: 'integrity_failure',
      message: `Ralph integrity check failed. Missing files: ${missing.join(', ')}. To restore only the missing files (yours stay as they are), run: ralph-enable`,
    };
  }
  if (s.state.circuit.state === 'OPEN') {
    s.emit({ type: 'circuit.halt', circuit: s.state.circuit });
    return { stop: 'circuit_breaker_open', message: s.state.circuit.reason };
  }
  return undefined;
}

/** What the checks before a call conclude: a reason not to make it, or fix_plan.md as the call finds it. */
export type BeforeCall =
  /** reserved: the call's place in a shared hourly budget is claimed already (a review made instead takes it). */
  { blocked: NonNullable<Step>; reserved?: true } | { blocked?: undefined; planBefore: FixPlanSummary | undefined };

/**
 * Everything before an iteration may spend a call: the stops that need no call, the hourly
 * budget (a wait), a plan already complete, and the checkpoint. The checkpoint comes before
 * the iteration counts as started: without one it may not start at all. fix_plan.md is read
 * once for all of it: nothing between these checks and the call changes the project's files,
 * except a verify run on a complete plan (it may roll the tree back), after which it is read again.
 */
export async function checkBeforeCall(s: LoopRun): Promise<BeforeCall> {
  const pre = preflight(s);
  if (pre) return { blocked: pre };
  const { config } = s;
  const { store } = s.deps;
  if (store.refreshRate) s.state.rate = store.refreshRate(s.state.rate);
  const permit = checkCall(s.state.rate, s.now, { maxCallsPerHour: config.maxCallsPerHour, maxTokensPerHour: config.maxTokensPerHour });
  if (!permit.ok) {
    // After the wait every check runs again: the wait may have used up the runtime, or a stop came.
    const stop = await waitForCallBudget(s, permit);
    return stop ? { blocked: stop } : checkBeforeCall(s);
  }
  // Loops sharing the budget may all see the last call free: only the one whose claim lands first makes it.
  const reserving = store.reserveSharedCall !== undefined && !s.options.dryRun;
  if (reserving && !(await store.reserveSharedCall?.(s.now, config.maxCallsPerHour))) return checkBeforeCall(s);
  const plan = store.readFixPlan(config.optionalSections);
  const planStop = await checkPlanComplete(s, plan);
  // The place claimed for this call goes to the reviewer's call, if one follows: it is not claimed twice.
  if (planStop) return { blocked: planStop, ...(reserving ? { reserved: true as const } : {}) };
  const planBefore = isPlanComplete(plan, s.state.lastAnalysis) ? store.readFixPlan(config.optionalSections) : plan;
  const gate = s.deps.gate;
  if (gate && !s.options.dryRun) {
    const next = s.state.loop + 1;
    const guard = await gate.beforeAgent(next);
    if (!guard.ok) return { blocked: { stop: 'checkpoint_failed', message: describeMissingCheckpoint(next, guard.reason, config.rollbackOnFail) } };
  }
  return { planBefore };
}
