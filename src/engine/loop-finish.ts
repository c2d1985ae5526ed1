import { EXIT_REASONS, LOCK_LOST, isCompletionReason, type ExitReason } from '../core/exit-reasons.js';
import { suggestAllowedTools } from '../core/permission-denials.js';
import type { LoopStop } from './loop-events.js';
import type { LoopRun } from './loop-run.js';

export interface LoopResult {
  reason: ExitReason;
  exitCode: number;
  loops: number;
  message: string;
}

/** The ALLOWED_TOOLS line that would have let the denied commands through. */
function permissionHalt(s: LoopRun): LoopStop['permissionHalt'] {
  const analysis = s.state.lastAnalysis;
  if (!analysis) return undefined;
  const suggestions = suggestAllowedTools(s.lastDenials, s.config.allowedTools);
  return { denied: analysis.deniedCommands, allowedLine: `ALLOWED_TOOLS="${[...s.config.allowedTools, ...suggestions].join(',')}"`, suggestions };
}

/** Why the agent session is forgotten when the loop ends for this reason, if it is. */
function sessionResetCause(reason: ExitReason): string | undefined {
  if (isCompletionReason(reason)) return 'project_complete';
  if (reason === 'permission_denied') return 'permission_denied';
  if (reason === 'circuit_breaker_open' || reason === 'safety_circuit_breaker') return 'circuit_breaker_open';
  if (reason === 'interrupted') return 'manual_interrupt';
  if (reason === 'integrity_failure') return 'integrity_failure';
  return undefined;
}

/** Ends the run: status, the stop and exit events, and the agent session reset where the reason calls for one. */
export function finishLoop(s: LoopRun, stopReason: ExitReason, message?: string): LoopResult {
  // Losing the lock stops the loop through the interrupt, but no signal was sent: say what happened.
  const reason: ExitReason = stopReason === 'interrupted' && s.deps.interrupt.reason === LOCK_LOST ? 'lock_lost' : stopReason;
  const info = EXIT_REASONS[reason];
  const signal = reason === 'interrupted' ? String(s.deps.interrupt.reason ?? 'SIGINT') : '';
  const exitCode = reason === 'interrupted' && signal === 'SIGTERM' ? 143 : info.exitCode;
  const detail = message ?? info.describe;
  const loop = s.state.loop;
  s.state.exitReason = reason;
  s.state.exitCode = exitCode;
  // A wait cut short by Ctrl+C stays visible: the next run resumes it.
  if (!(s.state.rate.wait && reason === 'interrupted')) s.state.waiting = null;
  s.setAction(info.lastAction, info.status, detail);
  const halt = reason === 'permission_denied' ? permissionHalt(s) : undefined;
  s.emit({ type: 'loop.stop', reason, detail, signal, ...(halt ? { permissionHalt: halt } : {}) });
  const resetCause = sessionResetCause(reason);
  if (resetCause) s.deps.store.resetSession(resetCause, loop, s.now);
  s.emit({ type: 'loop.exit', reason, exitCode, iterations: loop, startedAt: s.state.startedAt, endedAt: s.now, message: detail, totals: s.state.totals });
  return { reason, exitCode, loops: loop, message: detail };
}
