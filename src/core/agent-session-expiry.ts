/** A stored Claude session: its id and when it was created (epoch ms). */
export interface StoredAgentSession {
  sessionId: string;
  createdAt: number;
}

/**
 * A session expires `expiryHours` after its creation; a creation time in the
 * future (clock skew) is treated as expired rather than trusted.
 */
export function isAgentSessionExpired(session: StoredAgentSession, nowMs: number, expiryHours: number): boolean {
  const age = nowMs - session.createdAt;
  return age < 0 || age >= expiryHours * 3_600_000;
}

const SESSION_ID = /^[A-Za-z0-9_-]+$/;

/**
 * Reads .claude_session_id: the canonical `{"session_id", "timestamp"}` JSON,
 * or the original's legacy plain text whose first line is the id (only that line, never
 * the whole file). Junk, JSON-looking or not, means "no session".
 */
export function parseStoredAgentSession(text: string): { sessionId: string; timestamp?: string } | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed.startsWith('"')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      return undefined;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const rec = value as Record<string, unknown>;
    const id = typeof rec['session_id'] === 'string' ? rec['session_id'].trim() : '';
    if (!SESSION_ID.test(id)) return undefined;
    return typeof rec['timestamp'] === 'string' ? { sessionId: id, timestamp: rec['timestamp'] } : { sessionId: id };
  }
  const first = trimmed.split('\n', 1)[0]?.replace(/\r$/, '').trim() ?? '';
  return SESSION_ID.test(first) ? { sessionId: first } : undefined;
}
