import type { CallOutcome } from '../core/call-outcome.js';
import { claimsCompletion } from '../core/exit-signals.js';
import { decideIterationVerdict, type CallResult } from '../core/iteration-verdict.js';
import { recordCallTokens } from '../core/rate-limiter.js';
import type { Analysis, ProgressFacts } from '../core/response-analyzer.js';
import { formatDuration, isoTimestamp } from '../core/time-format.js';
import type { AgentRun } from '../ports.js';
import type { LoopSession } from './loop-session.js';
import type { GateRun } from './verify-gate.js';

/** Adds the call's tokens, cost and turns to the run and the hourly window, and records the result. */
export function accountUsage(s: LoopSession, agentRun: AgentRun, outcome: CallOutcome): void {
  const o = agentRun.output;
  const t = s.run.totals;
  if (o.usage) {
    t.input_tokens += o.usage.inputTokens;
    t.output_tokens += o.usage.outputTokens;
    t.cache_read_input_tokens += o.usage.cacheReadInputTokens;
    t.cache_creation_input_tokens += o.usage.cacheCreationInputTokens;
    const tokens = o.usage.inputTokens + o.usage.outputTokens;
    s.run.rate = recordCallTokens(s.run.rate, tokens);
    s.deps.store.saveRate(s.run.rate);
    if (s.config.maxTokensPerHour > 0) s.deps.logger.info(`Tokens this hour: +${tokens}`);
  }
  if (o.costUsd !== undefined) t.cost_usd += o.costUsd;
  if (o.numTurns !== undefined) t.num_turns += o.numTurns;
  s.deps.recorder.record('agent.result', {
    iteration: s.run.loop,
    end: agentRun.end,
    outcome: outcome.kind,
    exit_code: agentRun.exitCode ?? null,
    is_error: o.isError ?? null,
    subtype: o.subtype ?? null,
    session_id: o.sessionId ?? null,
    cost_usd: o.costUsd ?? 0,
    input_tokens: o.usage?.inputTokens ?? 0,
    output_tokens: o.usage?.outputTokens ?? 0,
    num_turns: o.numTurns ?? 0,
    duration_ms: agentRun.durationMs,
    format: o.format,
    ...(agentRun.details ?? {}),
  });
}

export type IterationOutcome = CallResult;

function progressStatus(outcome: IterationOutcome): string {
  if (outcome === 'success') return 'completed';
  if (outcome === 'timeout_productive') return 'timed_out_productive';
  if (outcome === 'timeout') return 'timed_out';
  return 'failed';
}

export interface IterationFacts {
  loop: number;
  started: number;
  outcome: IterationOutcome;
  agentRun: AgentRun;
  analysis?: Analysis;
  progress?: ProgressFacts;
  gate?: GateRun;
}

/** The end of an iteration in status.json, progress.json, metrics.jsonl and the session recording. */
export function recordIterationEnd(s: LoopSession, f: IterationFacts): void {
  const o = f.agentRun.output;
  const duration = s.now - f.started;
  const gateRan = f.gate && f.gate.decision !== 'not_run' ? f.gate : undefined;
  const verdict = decideIterationVerdict({
    call: f.outcome,
    ...(f.analysis ? { progress: f.analysis.hasProgress, claimedDone: claimsCompletion(f.analysis) } : {}),
    ...(gateRan ? { gate: { passed: gateRan.passed, aborted: gateRan.decision === 'escalated_abort', rolledBack: gateRan.rolledBack === true } } : {}),
    circuitOpened: s.run.circuit.state === 'OPEN',
  });
  const success = verdict.success;
  const summary = f.analysis?.workSummary ?? '';
  s.run.lastIteration = {
    loop: f.loop,
    outcome: f.outcome,
    duration_ms: duration,
    cost_usd: o.costUsd ?? 0,
    files_changed: f.progress?.filesChanged ?? 0,
    exit_signal: f.analysis ? f.analysis.exitSignal : null,
    summary,
    ended_at: isoTimestamp(s.now),
  };
  s.deps.store.writeProgress({ status: progressStatus(f.outcome), indicator: '✓', elapsed_seconds: Math.round(duration / 1000), last_output: summary.slice(0, 80), timestamp: isoTimestamp(s.now), loop: f.loop, current_tool: null, tool_uses: o.toolUseCount, started_at: isoTimestamp(f.started) });
  const gate = gateRan;
  s.deps.store.appendMetrics({
    type: 'iteration',
    timestamp: isoTimestamp(s.now),
    loop: f.loop,
    duration: duration / 1000,
    success,
    calls: 1,
    duration_ms: duration,
    outcome: f.outcome,
    result: verdict.label,
    exit_code: f.agentRun.exitCode ?? null,
    is_error: o.isError === true,
    session_id: o.sessionId ?? null,
    input_tokens: o.usage?.inputTokens ?? 0,
    output_tokens: o.usage?.outputTokens ?? 0,
    cache_read_input_tokens: o.usage?.cacheReadInputTokens ?? 0,
    cache_creation_input_tokens: o.usage?.cacheCreationInputTokens ?? 0,
    cost_usd: o.costUsd ?? 0,
    num_turns: o.numTurns ?? 0,
    files_changed: f.progress?.filesChanged ?? 0,
    exit_signal: f.analysis ? f.analysis.exitSignal : null,
    verify: gate ? { passed: gate.passed, exit_code: gate.exitCode, timed_out: gate.timedOut, duration_ms: gate.durationMs, attempt: gate.attempt, max_attempts: gate.maxAttempts } : null,
  });
  s.deps.recorder.record('iteration.end', { iteration: f.loop, outcome: f.outcome, result: verdict.label, success, duration_ms: duration });
  s.setAction(success ? 'completed' : f.outcome === 'interrupted' ? 'interrupted' : 'failed', success ? 'success' : 'error', `Loop #${f.loop}: ${verdict.label}`);
  const took = formatDuration(duration / 1000);
  s.deps.logger.loop(success ? `=== Completed Loop #${f.loop} (${verdict.label}, ${took}) ===` : `=== Loop #${f.loop} ended: ${verdict.label} (${took}) ===`);
}
