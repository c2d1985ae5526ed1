import type { CallOutcome } from '../core/call-outcome.js';
import { analyzeResponse, type Analysis, type ProgressFacts } from '../core/response-analyzer.js';
import type { AgentRun } from '../ports.js';
import { renderAnalysisSummary } from '../ui/screens.js';
import type { LoopSession } from './loop-session.js';

/**
 * Reads a usable call (success or productive timeout): keeps its session for
 * --resume, analyzes it, and writes .response_analysis and the recording.
 */
export function analyzeIteration(s: LoopSession, loop: number, agentRun: AgentRun, progress: ProgressFacts, outputLogPath: string): Analysis {
  const { store, logger, recorder } = s.deps;
  if (agentRun.output.sessionId && s.config.sessionContinuity) {
    store.rememberClaudeSession(agentRun.output.sessionId, s.now);
    s.run.sessionId = agentRun.output.sessionId;
  }
  const analysis = analyzeResponse(agentRun.output, { loop, allowedTools: s.config.allowedTools, progress, previousErrorLines: s.run.errorHistory });
  for (const warning of analysis.warnings) logger.warn(`Analysis: ${warning}`);
  store.saveAnalysis(analysis, outputLogPath, s.now);
  s.run.lastAnalysis = analysis;
  logger.print(renderAnalysisSummary(analysis));
  recorder.record('analysis', {
    iteration: loop,
    exit_signal: analysis.exitSignal,
    exit_signal_explicit: analysis.exitSignalExplicit,
    status: analysis.status ?? null,
    work_type: analysis.workType ?? null,
    has_progress: analysis.hasProgress,
    files_changed: progress.filesChanged,
    changed_files: progress.changedFiles,
    summary: analysis.workSummary,
    is_stuck: analysis.isStuck,
    denied_commands: analysis.deniedCommands,
  });
  if (analysis.hasCompoundCommandLimitation) {
    logger.warn(
      `Claude CLI denied ${analysis.compoundCommandCount} compound command(s) whose base command is already in ALLOWED_TOOLS: ${analysis.deniedCommands.join(', ')}. This is a Claude CLI matching limitation (pipes/redirects bypass Bash(cmd *) rules); the loop continues.`,
    );
  }
  return analysis;
}

/** The error lines that stand for an iteration in the same-error history. */
export function errorLinesOf(agentRun: AgentRun, outcome: CallOutcome, analysis: Analysis | undefined): string[] {
  if (analysis) return analysis.errorLines;
  if (outcome.kind === 'failed') return [`agent failure: ${outcome.message.split('\n', 1)[0]?.slice(0, 200) ?? ''}`];
  if (outcome.kind === 'timeout') return ['agent timeout'];
  return agentRun.output.text.errorLines;
}
