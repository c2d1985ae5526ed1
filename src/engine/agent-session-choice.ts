import type { RalphConfig } from '../config/keys.js';
import { isAgentSessionExpired } from '../core/agent-session-expiry.js';
import type { LoopRun } from './loop-run.js';

/**
 * The agent session to resume, if continuity is on and the stored session is
 * younger than SESSION_EXPIRY_HOURS (measured from its creation).
 */
export function chooseAgentSession(s: LoopRun, config: RalphConfig, nowMs: number): string | undefined {
  if (!config.sessionContinuity) return undefined;
  const stored = s.deps.store.readClaudeSession();
  if (!stored) return undefined;
  const ageHours = (nowMs - stored.createdAt) / 3_600_000;
  if (isAgentSessionExpired(stored, nowMs, config.sessionExpiryHours)) {
    s.notice({ code: 'session.expired', ageHours, maxHours: config.sessionExpiryHours });
    s.deps.store.forgetClaudeSession();
    return undefined;
  }
  s.notice({ code: 'session.resumed', sessionId: stored.sessionId, ageHours });
  return stored.sessionId;
}
