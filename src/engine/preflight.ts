import { describeMissingCheckpoint } from '../core/checkpoint-policy.js';
import { checkCall } from '../core/rate-limiter.js';
import { formatDuration } from '../core/time-format.js';
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

/**
 * Everything before an iteration may spend a call: the stops that need no call, the hourly
 * budget (a wait), a plan already complete, and the checkpoint. Undefined: the call may go ahead. The checkpoint comes before
 * the iteration counts as started: without one it may not start at all.
 */
export async function checkBeforeCall(s: LoopRun): Promise<Step> {
  const pre = preflight(s);
  if (pre) return pre;
  const { config } = s;
  const permit = checkCall(s.state.rate, s.now, { maxCallsPerHour: config.maxCallsPerHour, maxTokensPerHour: config.maxTokensPerHour });
  // After the wait every check runs again: the wait may have used up the runtime, or a stop came.
  if (!permit.ok) return (await waitForCallBudget(s, permit)) ?? checkBeforeCall(s);
  const planStop = await checkPlanComplete(s);
  if (planStop) return planStop;
  const gate = s.deps.gate;
  if (gate && !s.options.dryRun) {
    const next = s.state.loop + 1;
    const guard = await gate.beforeAgent(next);
    if (!guard.ok) return { stop: 'checkpoint_failed', message: describeMissingCheckpoint(next, guard.reason, config.rollbackOnFail) };
  }
  return undefined;
}
