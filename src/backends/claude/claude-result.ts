import type { AgentProgress, AgentResult } from '../../agent-result.js';
import { createClaudeProgressReader } from './claude-progress.js';
import { classifyClaudeCall, type ClaudeRun } from './classify-claude-call.js';
import { OutputScanner } from './output-scanner.js';

/** The neutral result of one Claude CLI run: its outcome, judged here, and what it reported. */
export function toAgentResult(run: ClaudeRun, nowMs: number, defaultZone: () => string): AgentResult {
  const o = run.output;
  const result: AgentResult = {
    outcome: classifyClaudeCall(run, nowMs, defaultZone),
    end: run.end,
    text: o.text,
    structured: o.format === 'json' || o.format === 'json-array' || o.format === 'stream-json',
    complete: o.hasResult,
    format: o.format,
    errors: o.errors,
    toolUses: o.toolUseCount,
    permissionDenials: o.permissionDenials,
    warnings: o.warnings,
    outputChars: o.chars,
    exitCode: run.exitCode,
    durationMs: run.durationMs,
    stderrTail: run.stderrTail,
  };
  if (o.isError !== undefined) result.reportedError = o.isError;
  if (o.subtype !== undefined) result.resultKind = o.subtype;
  if (o.apiErrorStatus !== undefined) result.apiStatus = o.apiErrorStatus;
  if (o.selfReport !== undefined) result.selfReport = o.selfReport;
  if (o.usage !== undefined) result.usage = o.usage;
  if (o.costUsd !== undefined) result.cost = { usd: o.costUsd, source: 'reported' };
  if (o.numTurns !== undefined) result.turns = o.numTurns;
  if (o.sessionId !== undefined) result.sessionId = o.sessionId;
  if (o.lastToolUse !== undefined) result.lastToolUse = o.lastToolUse;
  if (o.windows.length > 0) result.rateLimitWindows = o.windows;
  if (run.signal !== undefined) result.signal = run.signal;
  if (run.details !== undefined) result.details = run.details;
  return result;
}

/** The result of a complete Claude stdout held in memory (scripted replies, tests), its progress reported as read. */
export function readClaudeStdout(
  stdout: string,
  facts: Omit<ClaudeRun, 'output'>,
  nowMs: number,
  defaultZone: () => string,
  onProgress?: (event: AgentProgress) => void,
): AgentResult {
  const reader = createClaudeProgressReader();
  const scanner = new OutputScanner(onProgress ? (event) => reader.read(event).forEach(onProgress) : undefined);
  scanner.write(stdout);
  return toAgentResult({ ...facts, output: scanner.end() }, nowMs, defaultZone);
}
