import type { AgentOutcome, AgentResult } from '../agent-result.js';
import { isCostUnknown } from '../core/cost-display.js';
import { claimsCompletion } from '../core/exit-signals.js';
import { decideIterationVerdict, type CallResult } from '../core/iteration-verdict.js';
import { recordCallTokens } from '../core/rate-limiter.js';
import type { Analysis, ProgressFacts } from '../core/response-analyzer.js';
import { isoTimestamp } from '../core/time-format.js';
import type { LoopRun } from './loop-run.js';
import type { GateRun } from './verify-gate.js';

/** Adds the call's tokens, cost and turns to the run and the hourly window, and emits the result. */
export function accountUsage(s: LoopRun, agentRun: AgentResult, outcome: AgentOutcome): void {
  addCallUsage(s, agentRun);
  s.emit({ type: 'agent.result', iteration: s.state.loop, outcome: outcome.kind, run: agentRun });
}

/** Adds a call's tokens, cost and turns to the run's totals and the hourly window (every call: the worker's and the reviewer's). */
export function addCallUsage(s: LoopRun, agentRun: AgentResult): void {
  const o = agentRun;
  const t = s.state.totals;
  if (o.usage) {
    t.input_tokens += o.usage.inputTokens;
    t.output_tokens += o.usage.outputTokens;
    t.cache_read_input_tokens += o.usage.cacheReadInputTokens;
    t.cache_creation_input_tokens += o.usage.cacheCreationInputTokens;
    const tokens = o.usage.inputTokens + o.usage.outputTokens;
    s.state.rate = recordCallTokens(s.state.rate, tokens);
    s.deps.store.saveRate(s.state.rate);
    if (s.config.maxTokensPerHour > 0) s.notice({ code: 'tokens.used', tokens });
  }
  if (o.cost !== undefined) {
    t.cost_usd += o.cost.usd;
    if (o.cost.source === 'estimated') t.cost_estimated = true;
  } else if (isCostUnknown(o.cost, o.usage)) {
    t.cost_unknown_calls += 1;
  }
  if (o.turns !== undefined) t.num_turns += o.turns;
}

export type IterationOutcome = CallResult;

export interface IterationFacts {
  loop: number;
  started: number;
  outcome: IterationOutcome;
  agentRun: AgentResult;
  analysis?: Analysis;
  progress?: ProgressFacts;
  gate?: GateRun;
}

/** The end of an iteration: its verdict, the run state's last iteration, the iteration.end event and status. */
export function recordIterationEnd(s: LoopRun, f: IterationFacts): void {
  const o = f.agentRun;
  const now = s.now;
  const gateRan = f.gate && f.gate.decision !== 'not_run' ? f.gate : undefined;
  const verdict = decideIterationVerdict({
    call: f.outcome,
    ...(f.analysis ? { progress: f.analysis.hasProgress, claimedDone: claimsCompletion(f.analysis) } : {}),
    ...(gateRan ? { gate: { passed: gateRan.passed, aborted: gateRan.decision === 'escalated_abort', rolledBack: gateRan.rolledBack === true } } : {}),
    circuitOpened: s.state.circuit.state === 'OPEN',
  });
  const success = verdict.success;
  s.state.lastIteration = {
    loop: f.loop,
    outcome: f.outcome,
    result: verdict.label,
    success,
    duration_ms: now - f.started,
    cost_usd: o.cost?.usd ?? 0,
    cost_estimated: o.cost?.source === 'estimated',
    files_changed: f.progress?.filesChanged ?? 0,
    exit_signal: f.analysis ? f.analysis.exitSignal : null,
    summary: f.analysis?.workSummary ?? '',
    ended_at: isoTimestamp(now),
  };
  s.emit({
    type: 'iteration.end',
    iteration: f.loop,
    outcome: f.outcome,
    startedAt: f.started,
    endedAt: now,
    verdict: { label: verdict.label, success },
    call: {
      run: f.agentRun,
      ...(f.analysis ? { analysis: f.analysis } : {}),
      ...(f.progress ? { progress: f.progress } : {}),
      ...(gateRan ? { gate: gateRan } : {}),
    },
  });
  s.setAction(
    success ? 'completed' : f.outcome === 'interrupted' ? 'interrupted' : 'failed',
    success ? 'success' : 'error',
    `Loop #${f.loop}: ${verdict.label}`,
  );
}
