import { EXIT_REASONS, LOCK_LOST, isCompletionReason, type ExitReason } from '../core/exit-reasons.js';
import { suggestAllowedTools } from '../core/permission-denials.js';
import { formatDuration, isoTimestamp } from '../core/time-format.js';
import { renderPermissionDenied } from '../ui/screens.js';
import type { LoopSession } from './loop-session.js';

export interface LoopResult {
  reason: ExitReason;
  exitCode: number;
  loops: number;
  message: string;
}

function printPermissionHalt(s: LoopSession): void {
  const analysis = s.run.lastAnalysis;
  if (!analysis) return;
  const suggestions = suggestAllowedTools(s.lastDenials, s.config.allowedTools);
  const line = `ALLOWED_TOOLS="${[...s.config.allowedTools, ...suggestions].join(',')}"`;
  s.deps.logger.print(renderPermissionDenied(analysis.deniedCommands, line, suggestions));
}

/** Says why the loop ends in status.json, the log, a notification and the recording; resets the session where the original does. */
export function finishLoop(s: LoopSession, stopReason: ExitReason, message?: string): LoopResult {
  // Losing the lock stops the loop through the interrupt, but no signal was sent: say what happened.
  const reason: ExitReason = stopReason === 'interrupted' && s.deps.interrupt.reason === LOCK_LOST ? 'lock_lost' : stopReason;
  const { logger, store, recorder, notifier } = s.deps;
  const info = EXIT_REASONS[reason];
  const signalName = reason === 'interrupted' ? String(s.deps.interrupt.reason ?? 'SIGINT') : '';
  const exitCode = reason === 'interrupted' && signalName === 'SIGTERM' ? 143 : info.exitCode;
  const detail = message ?? info.describe;
  const loop = s.run.loop;
  s.run.exitReason = reason;
  s.run.exitCode = exitCode;
  // A wait cut short by Ctrl+C stays visible: the next run resumes it.
  if (!(s.run.rate.wait && reason === 'interrupted')) s.run.waiting = null;
  s.setAction(info.lastAction, info.status, detail);
  if (isCompletionReason(reason)) {
    logger.success(`🏁 Graceful exit triggered: ${reason} — ${detail}`);
    notifier.notify('completed', `Project completed! Exit reason: ${reason}`);
    store.resetSession('project_complete', loop, s.now);
  } else if (reason === 'permission_denied') {
    printPermissionHalt(s);
    store.resetSession('permission_denied', loop, s.now);
    notifier.notify('error', `Ralph halted: permission denied (${detail})`);
  } else if (reason === 'circuit_breaker_open' || reason === 'safety_circuit_breaker') {
    logger.error(`Ralph halted: ${reason} — ${detail}. Run 'ralph --reset-circuit' after fixing the cause.`);
    store.resetSession('circuit_breaker_open', loop, s.now);
    notifier.notify('circuit_open', `Circuit breaker opened: ${detail}`);
  } else if (reason === 'interrupted') {
    logger.warn(`Interrupted (${signalName}); state saved. Run 'ralph' to continue.`);
    store.resetSession('manual_interrupt', loop, s.now);
  } else if (reason === 'verify_aborted') {
    logger.error(`Verify gate aborted: ${detail}. Fix the cause and run 'ralph' again: the next run starts a fresh verify cycle (or 'ralph --gate-action skip' first, to go on without the gate).`);
    notifier.notify('verify_escalation', `Verify gate aborted: ${detail}`);
  } else if (reason === 'integrity_failure' || reason === 'agent_failure' || reason === 'checkpoint_failed' || reason === 'lock_lost') {
    logger.error(detail);
    if (reason === 'integrity_failure') store.resetSession('integrity_failure', loop, s.now);
    notifier.notify('error', `Ralph stopped: ${detail}`);
  } else if (reason === 'dry_run' || reason === 'stop_requested') {
    logger.success(`Loop stopped: ${detail}`);
  } else {
    logger.warn(`Loop stopped: ${reason} — ${detail}`);
    if (reason === 'usage_limit' || reason === 'api_rate_limit') notifier.notify('usage_limit', `Ralph stopped: ${detail}`);
  }
  const elapsed = (s.now - s.run.startedAt) / 1000;
  const t = s.run.totals;
  logger.info(`Loops: ${loop}; calls: ${t.calls}; cost: $${t.cost_usd.toFixed(4)}; tokens: ${t.input_tokens} in / ${t.output_tokens} out; time: ${formatDuration(elapsed)}`);
  logger.info(`Exit reason: ${reason} (exit code ${exitCode})`);
  store.appendMetrics({ type: 'run', timestamp: isoTimestamp(s.now), started_at: isoTimestamp(s.run.startedAt), exit_reason: reason, exit_code: exitCode, loops: loop, duration: elapsed, cost_usd: t.cost_usd });
  recorder.record('loop.exit', { reason, exit_code: exitCode, iterations: loop, elapsed_secs: elapsed, message: detail });
  return { reason, exitCode, loops: loop, message: detail };
}
