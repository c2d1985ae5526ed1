/** A stored Claude session: its id and when it was created (epoch ms). */
export interface StoredSession {
  sessionId: string;
  createdAt: number;
}

/**
 * A session expires `expiryHours` after its creation; a creation time in the
 * future (clock skew) is treated as expired rather than trusted.
 */
export function isSessionExpired(session: StoredSession, nowMs: number, expiryHours: number): boolean {
  const age = nowMs - session.createdAt;
  return age < 0 || age >= expiryHours * 3_600_000;
}
