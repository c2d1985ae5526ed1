import { windowUsage } from '../../core/rate-limiter.js';
import type { StatusDocument } from '../../core/status-model.js';
import { clockTime, isoTimestamp } from '../../core/time-format.js';
import type { RalphConfig } from '../../config/keys.js';
import type { RunSnapshot } from '../../engine/run-snapshot.js';

export interface StatusContext {
  config: RalphConfig;
  project: string;
  backend: string;
  pid: number;
}

/** Projects the run state onto status.json (original fields first, then ours). */
export function toStatusDocument(run: RunSnapshot, ctx: StatusContext, nowMs: number): StatusDocument {
  const usage = windowUsage(run.rate, nowMs);
  return {
    timestamp: isoTimestamp(nowMs),
    loop_count: run.loop,
    calls_made_this_hour: usage.calls,
    max_calls_per_hour: ctx.config.maxCallsPerHour,
    tokens_used_this_hour: usage.tokens,
    max_tokens_per_hour: ctx.config.maxTokensPerHour,
    last_action: run.lastAction,
    status: run.status,
    exit_reason: run.exitReason,
    next_reset: clockTime(usage.nextReset ?? nowMs + 3_600_000),
    sandbox: { provider: 'none' },
    pid: ctx.pid,
    started_at: isoTimestamp(run.startedAt),
    project: ctx.project,
    backend: ctx.backend,
    session_id: run.sessionId ?? null,
    exit_code: run.exitCode,
    message: run.message,
    circuit: {
      state: run.circuit.state,
      reason: run.circuit.reason,
      consecutive_no_progress: run.circuit.consecutive_no_progress,
      consecutive_failures: run.circuit.consecutive_failures,
      consecutive_same_error: run.circuit.consecutive_same_error,
      total_opens: run.circuit.total_opens,
    },
    totals: { ...run.totals },
    limits: { max_loops: ctx.config.maxLoops, max_cost_usd: ctx.config.maxCostUsd, max_runtime_minutes: ctx.config.maxRuntimeMinutes },
    last_iteration: run.lastIteration ?? null,
    verify: run.verify,
    waiting: run.waiting,
    quota_windows: run.quotaWindows.map((w) => ({
      window: w.kind,
      status: w.status,
      used_percent: w.usedPercent ?? null,
      resets_at: w.resetsAt !== undefined ? isoTimestamp(w.resetsAt) : null,
    })),
    max_tokens: ctx.config.maxTokens,
    review: run.review ? { ...run.review, findings: [...run.review.findings] } : null,
  };
}
