import type { AgentResult } from '../../agent-result.js';
import { processFacts } from '../cli-agent/cli-run.js';
import { estimateCost } from '../price-table.js';
import { classifyOpencodeCall, type OpencodeRun } from './classify-opencode-call.js';

/**
 * The neutral result of one OpenCode run. OpenCode prices each model call from its model
 * catalogue; when it knows no price (a custom provider, an offline catalogue) it reports 0, and
 * the cost is then estimated from the tokens and Ralph's price table, or left out.
 */
export function toOpencodeResult(run: OpencodeRun, model: string, nowMs: number): AgentResult {
  const o = run.output;
  const result: AgentResult = {
    outcome: classifyOpencodeCall(run, nowMs),
    text: o.text,
    structured: o.events > 0,
    complete: o.error === undefined && o.steps > 0 && o.finishReason !== 'tool-calls',
    format: 'json',
    errors: o.error ? [o.error.message] : [],
    toolUses: o.toolUses,
    permissionDenials: o.permissionDenials,
    warnings: o.warnings,
    outputChars: o.chars,
    ...processFacts(run),
  };
  if (o.error) {
    result.reportedError = true;
    result.resultKind = o.error.name;
    if (o.error.status !== undefined) result.apiStatus = o.error.status;
  }
  if (o.finishReason !== undefined && !o.error) result.resultKind = o.finishReason;
  if (o.usage) result.usage = o.usage;
  if (o.costUsd > 0) result.cost = { usd: o.costUsd, source: 'reported' };
  else if (o.usage) {
    const estimated = estimateCost(model, o.usage);
    if (estimated) result.cost = estimated;
  }
  if (o.steps > 0) result.turns = o.steps;
  if (o.sessionId !== undefined) result.sessionId = o.sessionId;
  if (o.lastToolUse !== undefined) result.lastToolUse = o.lastToolUse;
  return result;
}
