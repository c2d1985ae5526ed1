import { describeCost } from '../../core/cost-display.js';
import { isCompletionReason } from '../../core/exit-reasons.js';
import { formatDuration } from '../../core/time-format.js';
import type { LoopExit, LoopStop } from '../../engine/loop-events.js';
import type { Logger } from '../../ports.js';
import { agentDisplayName, backendEntry, isBackendName } from '../../backends/registry.js';
import { renderPermissionDenied, type DenialRemedy } from '../../ui/screens.js';

/**
 * Why the loop stops, in the words (and at the level) that fit the reason.
 * `restart` is the command line that started this loop, so advice to run it
 * again starts the same task, not the project's plan loop.
 */
export function presentLoopStop(logger: Logger, e: LoopStop, backend: string, restart = 'ralph'): void {
  const { reason, detail } = e;
  if (isCompletionReason(reason)) logger.success(`🏁 Graceful exit triggered: ${reason} — ${detail}`);
  else if (reason === 'permission_denied') {
    const halt = e.permissionHalt;
    if (halt) logger.print(renderPermissionDenied(agentDisplayName(backend), halt.denied, denialRemedy(backend, halt), restart));
  } else if (reason === 'circuit_breaker_open' || reason === 'safety_circuit_breaker') {
    logger.error(`Ralph halted: ${reason} — ${detail}. Run 'ralph --reset-circuit' after fixing the cause.`);
  } else if (reason === 'interrupted') logger.warn(`Interrupted (${e.signal}); state saved. Run '${restart}' to continue.`);
  else if (reason === 'verify_aborted') {
    logger.error(
      `Verify gate aborted: ${detail}. Fix the cause and run '${restart}' again: the next run starts a fresh verify cycle (or 'ralph --gate-action skip' first, to go on without the gate).`,
    );
  } else if (
    reason === 'integrity_failure' ||
    reason === 'agent_failure' ||
    reason === 'checkpoint_failed' ||
    reason === 'rollback_failed' ||
    reason === 'lock_lost'
  )
    logger.error(detail);
  else if (reason === 'review_rejected')
    logger.error(`Review rejected: ${detail}\nAddress the findings and run '${restart}' again (or allow more rounds with --review-max).`);
  else if (reason === 'dry_run' || reason === 'stop_requested') logger.success(`Loop stopped: ${detail}`);
  else logger.warn(`Loop stopped: ${reason} — ${detail}`);
}

/** ALLOWED_TOOLS for an agent that honours it; the agent's own way for one that does not. */
function denialRemedy(backend: string, halt: NonNullable<LoopStop['permissionHalt']>): DenialRemedy {
  const entry = isBackendName(backend) ? backendEntry(backend) : undefined;
  if (entry && !entry.capabilities.allowedTools && entry.deniedAdvice) return { advice: entry.deniedAdvice };
  return { allowedLine: halt.allowedLine, suggestions: halt.suggestions };
}

/** The run's totals and its exit code, the last lines of a run. */
export function presentLoopExit(logger: Logger, e: LoopExit): void {
  const t = e.totals;
  const elapsed = (e.endedAt - e.startedAt) / 1000;
  logger.info(
    `Loops: ${e.iterations}; calls: ${t.calls}; cost: ${describeCost({ usd: t.cost_usd, estimated: t.cost_estimated, unknownCalls: t.cost_unknown_calls })}; tokens: ${t.input_tokens} in / ${t.output_tokens} out; time: ${formatDuration(elapsed)}`,
  );
  logger.info(`Exit reason: ${e.reason} (exit code ${e.exitCode})`);
}
