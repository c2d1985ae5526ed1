import { readClaudeStdout } from './read-stdout.js';
import type { AgentResult } from '../../../src/agent-result.js';
import { analyzeResponse, type Analysis, type AnalysisContext, type ProgressFacts } from '../../../src/core/response-analyzer.js';

/** An Analysis with neutral defaults: JSON mode, no signal, no progress, nothing wrong. */
export function makeAnalysis(overrides: Partial<Analysis> = {}): Analysis {
  return {
    loop: 1,
    mode: 'json',
    exitSignal: false,
    exitSignalExplicit: false,
    hasCompletionSignal: false,
    isTestOnly: false,
    isStuck: false,
    hasProgress: false,
    progressSources: [],
    filesModified: 0,
    workSummary: '',
    outputLength: 0,
    confidenceScore: 0,
    errorLines: [],
    errorCount: 0,
    hasPermissionDenials: false,
    permissionDenialCount: 0,
    deniedCommands: [],
    hasCompoundCommandLimitation: false,
    compoundCommandCount: 0,
    askingQuestions: false,
    questionCount: 0,
    warnings: [],
    ...overrides,
  };
}

export function noProgress(): ProgressFacts {
  return { method: 'git', filesChanged: 0, changedFiles: [], committed: false, tasksChecked: 0 };
}

export function context(overrides: Partial<AnalysisContext> = {}): AnalysisContext {
  return { loop: 1, allowedTools: ['Write', 'Read', 'Bash(git *)'], progress: noProgress(), previousErrorLines: [], ...overrides };
}

/** A Claude CLI result object whose final message is `text`. */
export function cliResult(text: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: text, session_id: 'sess-1', total_cost_usd: 0.01, ...extra });
}

export function statusBlock(fields: Record<string, string>): string {
  return ['---RALPH_STATUS---', ...Object.entries(fields).map(([k, v]) => `${k}: ${v}`), '---END_RALPH_STATUS---'].join('\n');
}

/** The neutral result of a Claude CLI stdout that exited 0. */
export function claudeResult(stdout: string): AgentResult {
  return readClaudeStdout(stdout, { end: 'exited', exitCode: 0, durationMs: 1000, stderrTail: '' }, Date.parse('2026-11-22T12:00:00Z'), () => 'UTC');
}

/** Analyzes raw Claude stdout the way the loop does. */
export function analyze(stdout: string, ctx: Partial<AnalysisContext> = {}): Analysis {
  return analyzeResponse(claudeResult(stdout), context(ctx));
}
