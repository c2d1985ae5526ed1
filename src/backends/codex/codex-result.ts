import type { AgentResult, PermissionDenial, TokenUsage } from '../../agent-result.js';
import { processFacts } from '../cli-agent/cli-run.js';
import { estimateCost } from '../price-table.js';
import { toRateLimitWindows } from './codex-windows.js';
import { classifyCodexCall, codexApiStatus, codexFailureText, type CodexRun } from './classify-codex-call.js';

/** What a call adds to the thread's figures: its model (for the price) and the thread's totals before it. */
export interface CodexCallFacts {
  model: string;
  /** The thread's token totals before this call, when Ralph knows them (a resumed thread). */
  usageBefore?: TokenUsage;
  /** Codex ran its commands in its own sandbox (CODEX_EXTRA_ARGS chose one): what it refused is a denial. */
  sandboxed?: boolean;
}

/** The neutral result of one Codex CLI run: its outcome, judged here, and what it reported. */
export function toCodexResult(run: CodexRun, facts: CodexCallFacts, nowMs: number, defaultZone: () => string): AgentResult {
  const o = run.output.output;
  const outcome = classifyCodexCall(run, nowMs, defaultZone);
  const structured = o.events > 0;
  const result: AgentResult = {
    outcome,
    text: structured ? o.text : run.output.raw,
    structured,
    complete: o.turnCompleted,
    format: structured ? 'codex-jsonl' : 'text',
    errors: [...o.errors, ...(o.turnFailed !== undefined && !o.errors.includes(o.turnFailed) ? [o.turnFailed] : [])],
    toolUses: o.toolUses,
    permissionDenials: [...o.permissionDenials, ...refusedEscalations(run.stderrTail), ...(facts.sandboxed ? o.refusedCommands : [])],
    warnings: o.warnings,
    outputChars: run.output.chars,
    ...processFacts(run),
  };
  if (outcome.kind !== 'success') {
    result.reportedError = o.turnFailed !== undefined;
    const status = codexApiStatus(codexFailureText(run));
    if (status !== undefined) result.apiStatus = status;
  }
  if (o.turnCompleted) result.resultKind = 'turn.completed';
  else if (o.turnFailed !== undefined) result.resultKind = 'turn.failed';
  const usage = o.threadUsage && callUsage(o.threadUsage, facts.usageBefore);
  if (usage) {
    result.usage = usage;
    const cost = estimateCost(facts.model, usage);
    if (cost) result.cost = cost;
  }
  if (o.threadId !== undefined) result.sessionId = o.threadId;
  if (o.windows.length > 0) result.rateLimitWindows = toRateLimitWindows(o.windows, nowMs);
  if (o.lastToolUse !== undefined) result.lastToolUse = o.lastToolUse;
  return result;
}

/**
 * Commands Codex refused to run because they asked for more than its sandbox allows while no
 * one can approve them: Codex tells the model and logs it on stderr, with no event on stdout.
 */
export function refusedEscalations(stderr: string): PermissionDenial[] {
  const refusals = stderr.split('\n').filter((line) => /codex_core::tools::router: error=.*\breject command\b/.test(line));
  return refusals.slice(0, 20).map(() => ({ tool: 'Shell', detail: 'a command that asked to run outside the sandbox' }));
}

/**
 * This call's tokens. Codex reports the thread's running totals, so a resumed thread's call is
 * its totals minus those before it; a total that went down (Codex compacted the thread) is
 * taken whole rather than made negative.
 */
export function callUsage(total: TokenUsage, before: TokenUsage | undefined): TokenUsage {
  if (!before) return total;
  const keys = ['inputTokens', 'outputTokens', 'cacheReadInputTokens', 'cacheCreationInputTokens'] as const;
  if (keys.some((k) => total[k] < before[k])) return total;
  return {
    inputTokens: total.inputTokens - before.inputTokens,
    outputTokens: total.outputTokens - before.outputTokens,
    cacheReadInputTokens: total.cacheReadInputTokens - before.cacheReadInputTokens,
    cacheCreationInputTokens: total.cacheCreationInputTokens - before.cacheCreationInputTokens,
  };
}
