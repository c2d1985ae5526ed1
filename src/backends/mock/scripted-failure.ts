import type { AgentOutcome } from '../../agent-result.js';
import { parseResetTime } from '../../core/reset-time.js';
import { detectUnrecoverable } from '../../core/unrecoverable-error.js';
import { USAGE_LIMIT_WORDS } from '../../core/usage-limit-words.js';

/**
 * The words a scripted reply plays an agent's trouble in, as agents print them: a usage limit
 * with its reset time, an overloaded API, a broken session, refused credentials. The mock
 * judges them itself, so a script plays any agent's failure without standing for one agent.
 */
const TRANSIENT = /rate_limit_error|overloaded_error|\boverloaded\b|\b529\b|Request rejected \(429\)/i;
const SESSION_BROKEN = /tool.use.concurrency|No conversation found with session ID|prompt is too long|Prompt is too long/i;

function lastLines(text: string, count: number): string {
  return text.split('\n').slice(-count).join('\n');
}

/**
 * What a scripted reply with a non-zero exit code amounted to, from its words (`text`, the
 * reply as the agent's answer digest shows it). The reset time of a usage limit is read in
 * `zone` when the words give none; the zone is asked for only then.
 */
export function judgeScriptedFailure(text: string, exitCode: number, nowMs: number, zone: () => string): AgentOutcome {
  const said = text.trim();
  const recent = lastLines(`${text}\n`, 30);
  const last3 = lastLines(text, 3);
  const unrecoverable = detectUnrecoverable(`${last3}\n`, undefined);
  if (unrecoverable) {
    const message = (last3.split('\n').find((line) => line.trim().length > 0) ?? said).trim().slice(0, 300);
    return { kind: 'unrecoverable', message, advice: unrecoverable.advice, ...(unrecoverable.kind === 'credit_balance' ? {} : { refusedCredentials: true }) };
  }
  if (USAGE_LIMIT_WORDS.some((re) => re.test(recent))) {
    const outcome: AgentOutcome = { kind: 'usage_limit', message: (lastLines(text, 2) || recent).trim().slice(0, 300) };
    const resetAt = parseResetTime(recent, nowMs, zone());
    if (resetAt !== undefined) outcome.resetAt = resetAt;
    return outcome;
  }
  const message = said ? `${lastLines(said, 3).slice(0, 500)} (exit code ${exitCode})` : `the mock agent failed (exit code ${exitCode}) without output`;
  if (TRANSIENT.test(recent)) return { kind: 'api_transient', message };
  return { kind: 'failed', message, resetSession: SESSION_BROKEN.test(`${text}\n`) };
}
