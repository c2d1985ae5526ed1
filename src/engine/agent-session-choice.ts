import type { RalphConfig } from '../config/keys.js';
import { isAgentSessionExpired } from '../core/agent-session-expiry.js';
import type { LoopRun } from './loop-run.js';

/**
 * The agent session to resume, if continuity is on, the stored session is younger than
 * SESSION_EXPIRY_HOURS (measured from its creation) and the agent that runs now is the one
 * that made it: a session id means nothing to another agent's CLI, so a switch of backend
 * starts a new session and says so.
 */
export function chooseAgentSession(s: LoopRun, config: RalphConfig, nowMs: number): string | undefined {
  if (!config.sessionContinuity) return undefined;
  const stored = s.deps.store.readAgentSession();
  if (!stored) return undefined;
  const ageHours = (nowMs - stored.createdAt) / 3_600_000;
  if (stored.backend !== s.deps.backend.name) {
    s.notice({ code: 'session.other_agent', sessionBackend: stored.backend, sessionId: stored.sessionId });
    s.deps.store.forgetAgentSession();
    return undefined;
  }
  if (isAgentSessionExpired(stored, nowMs, config.sessionExpiryHours)) {
    s.notice({ code: 'session.expired', ageHours, maxHours: config.sessionExpiryHours });
    s.deps.store.forgetAgentSession();
    return undefined;
  }
  s.notice({ code: 'session.resumed', sessionId: stored.sessionId, ageHours });
  return stored.sessionId;
}
