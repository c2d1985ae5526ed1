import type { RalphConfig } from '../config/keys.js';
import { isSessionExpired } from '../core/session-expiry.js';
import type { LoopDeps } from './loop-deps.js';

/**
 * The Claude session to resume, if continuity is on and the stored session is
 * younger than SESSION_EXPIRY_HOURS (measured from its creation).
 */
export function selectSession(deps: Pick<LoopDeps, 'store' | 'logger'>, config: RalphConfig, nowMs: number): string | undefined {
  if (!config.sessionContinuity) return undefined;
  const stored = deps.store.readClaudeSession();
  if (!stored) return undefined;
  const ageHours = (nowMs - stored.createdAt) / 3_600_000;
  if (isSessionExpired(stored, nowMs, config.sessionExpiryHours)) {
    deps.logger.info(`Session expired (${Math.floor(ageHours)}h old, max ${config.sessionExpiryHours}h); starting a new one`);
    deps.store.forgetClaudeSession();
    return undefined;
  }
  deps.logger.info(`Resuming Claude session: ${stored.sessionId.slice(0, 20)}... (${Math.floor(ageHours)}h old)`);
  return stored.sessionId;
}
