/**
 * A stored agent session: its id, when it was created (epoch ms) and the backend whose CLI
 * made it. A session id means something only to the CLI that gave it, so only that backend
 * may resume it.
 */
export interface StoredAgentSession {
  sessionId: string;
  createdAt: number;
  backend: string;
}

/**
 * The backend a session file names. Files written before sessions were tagged name none: the
 * original Ralph ran Claude Code only, and Claude is the default backend, so such a session is
 * Claude's, and never handed to another agent.
 */
export const UNTAGGED_SESSION_BACKEND = 'claude';

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
 * Reads .claude_session_id (its name kept from the original): the canonical
 * `{"session_id", "timestamp", "backend"}` JSON,
 * or the original's legacy plain text whose first line is the id (only that line, never
 * the whole file). Junk, JSON-looking or not, means "no session".
 */
export function parseStoredAgentSession(text: string): { sessionId: string; timestamp?: string; backend: string } | undefined {
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
    const backend = typeof rec['backend'] === 'string' && rec['backend'] !== '' ? rec['backend'] : UNTAGGED_SESSION_BACKEND;
    return typeof rec['timestamp'] === 'string' ? { sessionId: id, timestamp: rec['timestamp'], backend } : { sessionId: id, backend };
  }
  const first = trimmed.split('\n', 1)[0]?.replace(/\r$/, '').trim() ?? '';
  return SESSION_ID.test(first) ? { sessionId: first, backend: UNTAGGED_SESSION_BACKEND } : undefined;
}
