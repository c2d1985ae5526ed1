import type { AgentResult } from '../../agent-result.js';
import { processFacts } from '../cli-agent/cli-run.js';
import { classifyClaudeCall, type ClaudeRun } from './classify-claude-call.js';

/** The neutral result of one Claude CLI run: its outcome, judged here, and what it reported. */
export function toAgentResult(run: ClaudeRun, nowMs: number, defaultZone: () => string): AgentResult {
  const o = run.output;
  const result: AgentResult = {
    outcome: classifyClaudeCall(run, nowMs, defaultZone),
    text: o.text,
    structured: o.format === 'json' || o.format === 'json-array' || o.format === 'stream-json',
    complete: o.hasResult,
    format: o.format,
    errors: o.errors,
    toolUses: o.toolUseCount,
    permissionDenials: o.permissionDenials,
    warnings: o.warnings,
    outputChars: o.chars,
    ...processFacts(run),
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
  return result;
}
