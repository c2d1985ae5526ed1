import type { AgentCost, AgentResult } from '../../agent-result.js';
import { processFacts } from '../cli-agent/cli-run.js';
import { estimateCost } from '../price-table.js';
import { classifyGeminiCall, geminiApiStatus, type GeminiRun } from './classify-gemini-call.js';
import type { GeminiOutput } from './gemini-stream.js';

/**
 * Gemini CLI reports tokens per model but no cost: the cost is the tokens at list prices,
 * marked estimated. A model missing from the price table leaves the whole call without a
 * figure rather than with a part of one.
 */
export function estimateGeminiCost(output: GeminiOutput): AgentCost | undefined {
  const used = output.modelUsage.filter(({ usage }) => usage.inputTokens + usage.outputTokens + usage.cacheReadInputTokens > 0);
  if (used.length === 0) return undefined;
  let usd = 0;
  for (const { model, usage } of used) {
    const cost = estimateCost(model, usage);
    if (cost === undefined) return undefined;
    usd += cost.usd;
  }
  return { usd, source: 'estimated' };
}

/** The neutral result of one Gemini CLI run: its outcome, judged here, and what it reported. */
export function toGeminiResult(run: GeminiRun, nowMs: number): AgentResult {
  const o = run.output;
  const result: AgentResult = {
    outcome: classifyGeminiCall(run, nowMs),
    text: o.text,
    structured: o.hasResult || o.sessionId !== undefined,
    complete: o.hasResult && o.resultStatus === 'success',
    format: 'stream-json',
    errors: [...(o.errorMessage ? [o.errorMessage] : []), ...o.errors],
    toolUses: o.toolUseCount,
    permissionDenials: o.permissionDenials,
    warnings: o.warnings,
    outputChars: o.chars,
    ...processFacts(run),
  };
  if (o.resultStatus !== undefined) {
    result.reportedError = o.resultStatus !== 'success';
    result.resultKind = o.resultStatus;
  }
  const status = o.resultStatus === 'error' ? geminiApiStatus(o.errorMessage, run.exitCode) : undefined;
  if (status !== undefined) result.apiStatus = status;
  if (o.usage !== undefined) result.usage = o.usage;
  const cost = estimateGeminiCost(o);
  if (cost !== undefined) result.cost = cost;
  if (o.sessionId !== undefined) result.sessionId = o.sessionId;
  if (o.lastToolUse !== undefined) result.lastToolUse = o.lastToolUse;
  return result;
}
