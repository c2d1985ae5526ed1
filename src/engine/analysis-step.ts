import type { AgentOutcome, AgentResult } from '../agent-result.js';
import { analyzeResponse, type Analysis, type ProgressFacts } from '../core/response-analyzer.js';
import type { LoopRun } from './loop-run.js';

/**
 * Reads a usable call (success or productive timeout): keeps its session for
 * the next call to resume, analyzes it, saves .response_analysis and emits the analysis.
 */
export function analyzeIteration(s: LoopRun, loop: number, agentRun: AgentResult, progress: ProgressFacts, outputLogPath: string): Analysis {
  const { store } = s.deps;
  if (agentRun.sessionId && s.config.sessionContinuity) {
    store.rememberAgentSession(agentRun.sessionId, s.deps.backend.name, s.now);
    s.state.sessionId = agentRun.sessionId;
  }
  const analysis = analyzeResponse(agentRun, { loop, allowedTools: s.config.allowedTools, progress, previousErrorLines: s.state.errorHistory });
  store.saveAnalysis(analysis, outputLogPath, s.now);
  s.state.lastAnalysis = analysis;
  s.emit({ type: 'analysis', iteration: loop, analysis, progress });
  return analysis;
}

/** The error lines that stand for an iteration in the same-error history. */
export function errorLinesOf(agentRun: AgentResult, outcome: AgentOutcome, analysis: Analysis | undefined): string[] {
  if (analysis) return analysis.errorLines;
  if (outcome.kind === 'failed') return [`agent failure: ${outcome.message.split('\n', 1)[0]?.slice(0, 200) ?? ''}`];
  if (outcome.kind === 'timeout') return ['agent timeout'];
  return agentRun.text.errorLines;
}
