import type { AgentOutcome } from '../../agent-result.js';
import { parseResetTime } from '../../core/reset-time.js';
import { digestText } from '../../core/text-digest.js';
import { detectUnrecoverable } from '../../core/unrecoverable-error.js';
import { USAGE_LIMIT_WORDS } from '../../core/usage-limit-words.js';
import { unexitedOutcome, type CliRun } from '../cli-agent/cli-run.js';
import type { ClaudeOutput } from './claude-output.js';

/** One run of the Claude CLI: how the process ended and the digest of what it printed. */
export type ClaudeRun = CliRun<ClaudeOutput>;

const TRANSIENT_TEXT = /rate_limit_error|overloaded_error|\boverloaded\b|\b529\b|Request rejected \(429\)/i;
const SESSION_BROKEN = /tool.use.concurrency|No conversation found with session ID|prompt is too long|Prompt is too long/i;
/** Lines that echo tool input/output in raw streams must not trigger limit detection. */
const TOOL_ECHO = /"type"\s*:\s*"user"|"tool_result"|"tool_use_id"/;

function lastLines(text: string, count: number): string {
  return text
    .split('\n')
    .filter((l) => !TOOL_ECHO.test(l))
    .slice(-count)
    .join('\n');
}

function failureMessage(run: ClaudeRun): string {
  const o = run.output;
  const text = digestText(o.text).trim();
  const first = o.errors[0] ?? (text ? lastLines(text, 3) : '') ?? '';
  const candidates = [first, run.stderrTail.trim().split('\n').slice(-3).join('\n'), run.failure ?? ''];
  const message = candidates.find((c) => c && c.trim().length > 0) ?? '';
  const exit = run.exitCode !== undefined ? `exit code ${run.exitCode}` : run.signal ? `killed by ${run.signal}` : 'no exit code';
  return message ? `${message.slice(0, 500)} (${exit})` : `Claude Code failed (${exit}) without output`;
}

/**
 * What one Claude CLI call amounted to, decided from structure first and text
 * second. A timeout is never a usage limit; `is_error` is a failure even with
 * exit code 0. The default zone is asked for only when a usage limit's reset
 * time must be read: the machine's zone costs ~20 ms of ICU start-up per process.
 */
export function classifyClaudeCall(run: ClaudeRun, nowMs: number, defaultZone: () => string): AgentOutcome {
  const unexited = unexitedOutcome(run, 'the agent');
  if (unexited) return unexited;
  const o = run.output;
  const failed = o.isError === true || (run.exitCode !== undefined && run.exitCode !== 0) || run.exitCode === undefined;
  if (!failed) return { kind: 'success' };

  const text = [digestText(o.text), ...o.errors, run.stderrTail].join('\n');
  const recent = lastLines(text, 30);
  // With a result object its message is the CLI's own error; the agent's prose is not.
  const errorText = o.hasResult ? [lastLines(digestText(o.text), 3), ...o.errors, run.stderrTail].join('\n') : recent;
  const unrecoverable = detectUnrecoverable(errorText, o.apiErrorStatus);
  if (unrecoverable) {
    const message = (
      errorText
        .trim()
        .split('\n')
        .find((l) => l.trim().length > 0) ?? failureMessage(run)
    )
      .trim()
      .slice(0, 300);
    return { kind: 'unrecoverable', message, advice: unrecoverable.advice, ...(unrecoverable.kind === 'credit_balance' ? {} : { refusedCredentials: true }) };
  }
  // Structural evidence first: a rejected rate_limit_event, or the CLI's own classification.
  const structural = o.rateLimit?.status === 'rejected' || o.apiError === 'usage_limit_reached';
  const textual = USAGE_LIMIT_WORDS.some((re) => re.test(recent));
  if (structural || textual) {
    const outcome: AgentOutcome = { kind: 'usage_limit', message: (lastLines(digestText(o.text), 2) || recent).trim().slice(0, 300) };
    // A structural reset time already in the past means the limit has lifted: retry after the jitter.
    const resetAt = o.rateLimit?.resetsAt !== undefined ? Math.max(nowMs, o.rateLimit.resetsAt * 1000) : parseResetTime(recent, nowMs, defaultZone());
    if (resetAt !== undefined) outcome.resetAt = resetAt;
    return outcome;
  }
  const status = o.apiErrorStatus;
  // A 5xx is the API's passing trouble, like its 529: worth the same retries.
  const serverError = status !== undefined && status >= 500;
  if (status === 429 || serverError || o.apiErrorType === 'rate_limit_error' || o.apiErrorType === 'overloaded_error' || TRANSIENT_TEXT.test(recent)) {
    const outcome: AgentOutcome = { kind: 'api_transient', message: failureMessage(run) };
    if (status !== undefined) outcome.status = status;
    return outcome;
  }
  return { kind: 'failed', message: failureMessage(run), resetSession: SESSION_BROKEN.test(text) };
}
