import type { AgentResult } from '../agent-result.js';
import { assessDenials } from './permission-denials.js';
import { parseStatusBlock, withoutStatusBlock, type StatusBlock } from './ralph-status-block.js';
import { digestText } from './text-digest.js';
import { countQuestions, findCompletionPhrase, findNoWorkPhrase, looksTestOnly, summarize } from './text-heuristics.js';

/** What the loop measured about the work tree for this iteration. */
export interface ProgressFacts {
  /** 'git' (tree snapshots), 'files' (mtime scan outside git) or 'none'. */
  method: 'git' | 'files' | 'none';
  /** Files changed since the iteration began (committed, staged, unstaged, untracked), Ralph's state excluded. */
  filesChanged: number;
  changedFiles: string[];
  /** HEAD moved during the iteration. */
  committed: boolean;
  /** fix_plan.md tasks checked during the iteration. */
  tasksChecked: number;
}

export interface AnalysisContext {
  loop: number;
  allowedTools: readonly string[];
  progress: ProgressFacts;
  /** Error lines of the previous iterations, newest first (for the stuck-loop rule). */
  previousErrorLines: ReadonlyArray<readonly string[]>;
}

export interface Analysis {
  loop: number;
  /** How the output was read: JSON semantics (structured) or text heuristics. */
  mode: 'json' | 'text';
  status?: string;
  /** Effective exit signal: explicit EXIT_SIGNAL, else STATUS: COMPLETE. */
  exitSignal: boolean;
  /** EXIT_SIGNAL was stated explicitly (true or false). */
  exitSignalExplicit: boolean;
  hasCompletionSignal: boolean;
  completionPhrase?: string;
  isTestOnly: boolean;
  /** The same error lines recur across the last three outputs. */
  isStuck: boolean;
  hasProgress: boolean;
  progressSources: string[];
  filesModified: number;
  tasksCompleted?: number;
  workType?: string;
  testsStatus?: string;
  recommendation?: string;
  workSummary: string;
  outputLength: number;
  confidenceScore: number;
  errorLines: string[];
  errorCount: number;
  hasPermissionDenials: boolean;
  permissionDenialCount: number;
  deniedCommands: string[];
  hasCompoundCommandLimitation: boolean;
  compoundCommandCount: number;
  askingQuestions: boolean;
  questionCount: number;
  warnings: string[];
}

const STUCK_HISTORY = 2;

/** Every current error line also appeared in each of the two previous outputs. */
export function isStuckLoop(current: readonly string[], previous: ReadonlyArray<readonly string[]>): boolean {
  if (current.length === 0 || previous.length < STUCK_HISTORY) return false;
  return previous.slice(0, STUCK_HISTORY).every((lines) => {
    const seen = new Set(lines);
    return current.every((line) => seen.has(line));
  });
}

/** The parts of an agent result the analysis reads. */
export type AgentReply = Pick<AgentResult, 'text' | 'structured' | 'complete' | 'reportedError' | 'errors' | 'selfReport' | 'permissionDenials' | 'warnings'>;

function errorLinesOf(output: AgentReply): string[] {
  const lines = [...output.text.errorLines];
  if (output.reportedError === true) {
    const message = output.errors[0] ?? output.text.head.split('\n', 1)[0] ?? '';
    if (message.trim()) lines.push(`agent error: ${message.trim().slice(0, 300)}`);
  }
  return [...new Set(lines)];
}

/**
 * Reads one iteration's output into an Analysis. Pure: the loop supplies the
 * progress it measured and the error history.
 */
export function analyzeResponse(output: AgentReply, ctx: AnalysisContext): Analysis {
  const text = digestText(output.text);
  // JSON output never gets prose heuristics, even when it was cut before its result.
  const mode: 'json' | 'text' = output.structured ? 'json' : 'text';
  const block: StatusBlock | undefined = parseStatusBlock(text);
  const report = output.selfReport;
  const warnings = [...output.warnings, ...(block?.warnings ?? [])];

  const status = block?.status ?? (report?.status ? report.status.toUpperCase() : undefined);
  const explicit = block?.exitSignal ?? report?.exitSignal;
  const completionStatus = report?.completionStatus?.toLowerCase() === 'complete';
  const exitSignal = explicit ?? (status === 'COMPLETE' || completionStatus);

  const prose = block ? withoutStatusBlock(text) : text;
  let completionPhrase: string | undefined;
  let hasCompletionSignal = status === 'COMPLETE' || exitSignal;
  if (mode === 'text' && explicit === undefined) {
    completionPhrase = findCompletionPhrase(prose) ?? findNoWorkPhrase(prose);
    if (completionPhrase !== undefined) hasCompletionSignal = true;
  }

  const workType = block?.workType ?? (report?.workType ? report.workType.toUpperCase() : undefined);
  const isTestOnly = workType === 'TESTING' || workType === 'TEST_ONLY' || (mode === 'text' && workType === undefined && looksTestOnly(prose));

  const selfFiles = block?.filesModified ?? report?.filesModified;
  const tasksCompleted = block?.tasksCompleted;
  const progressSources: string[] = [];
  if (ctx.progress.filesChanged > 0) progressSources.push(ctx.progress.method === 'git' ? 'git' : 'files');
  if (ctx.progress.tasksChecked > 0) progressSources.push('fix_plan');
  if ((selfFiles ?? 0) > 0) progressSources.push('files_modified');
  if ((tasksCompleted ?? 0) > 0) progressSources.push('tasks_completed');

  const denials = assessDenials(output.permissionDenials, ctx.allowedTools);
  const errorLines = errorLinesOf(output);
  const questionCount = countQuestions(prose);

  let confidence = 0;
  if (explicit === true) confidence = 100;
  else {
    if (output.complete) confidence += 20;
    confidence += 5 * (report?.progressIndicators ?? 0);
    if (report?.confidence !== undefined) confidence += report.confidence;
    if (hasCompletionSignal) confidence += mode === 'text' ? 10 : 50;
    if (progressSources.length > 0) confidence += 20;
  }

  const analysis: Analysis = {
    loop: ctx.loop,
    mode,
    exitSignal,
    exitSignalExplicit: explicit !== undefined,
    hasCompletionSignal,
    isTestOnly,
    isStuck: isStuckLoop(errorLines, ctx.previousErrorLines),
    hasProgress: progressSources.length > 0,
    progressSources,
    filesModified: ctx.progress.method === 'none' ? (selfFiles ?? 0) : ctx.progress.filesChanged,
    workSummary: summarize(prose) || (completionPhrase ? 'No work remaining' : 'Output analyzed, no explicit summary found'),
    outputLength: output.text.length,
    confidenceScore: Math.min(100, confidence),
    errorLines,
    errorCount: output.text.errorLineCount + (output.reportedError === true ? 1 : 0),
    hasPermissionDenials: denials.real.length > 0,
    permissionDenialCount: denials.real.length,
    deniedCommands: denials.deniedCommands,
    hasCompoundCommandLimitation: denials.compound.length > 0,
    compoundCommandCount: denials.compound.length,
    askingQuestions: questionCount > 0,
    questionCount,
    warnings,
  };
  if (status !== undefined) analysis.status = status;
  if (completionPhrase !== undefined) analysis.completionPhrase = completionPhrase;
  if (tasksCompleted !== undefined) analysis.tasksCompleted = tasksCompleted;
  if (workType !== undefined) analysis.workType = workType;
  if (block?.testsStatus !== undefined) analysis.testsStatus = block.testsStatus;
  if (block?.recommendation !== undefined) analysis.recommendation = block.recommendation;
  return analysis;
}
