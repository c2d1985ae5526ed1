import { rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isoTimestamp, parseIso } from '../core/time-format.js';
import { readRegularFile } from '../infra/regular-file.js';
import { loadDocument, saveDocument } from './document-store.js';
import { RALPH_SESSION, RALPH_SESSION_HISTORY, SESSION_HISTORY_LIMIT, type RalphSession } from './documents/sessions.js';
import { writeJsonAtomic } from './json-file.js';
import type { RalphPaths } from './paths.js';

/**
 * Agent session continuity: the id to resume and the backend that made it, kept as
 * `{"session_id", "timestamp", "backend"}` in .claude_session_id. Expiry is measured from
 * the session's creation — the original measured idle time because it rewrote
 * the file every loop.
 */
export type { StoredAgentSession } from '../core/agent-session-expiry.js';
import { parseStoredAgentSession, type StoredAgentSession } from '../core/agent-session-expiry.js';

export function readAgentSession(paths: RalphPaths): StoredAgentSession | undefined {
  let text: string;
  try {
    text = readRegularFile(paths.claudeSession, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = parseStoredAgentSession(text);
  if (!parsed) return undefined;
  return { sessionId: parsed.sessionId, createdAt: parseIso(parsed.timestamp) ?? statSync(paths.claudeSession).mtimeMs, backend: parsed.backend };
}

export function writeAgentSession(paths: RalphPaths, session: StoredAgentSession): void {
  writeJsonAtomic(paths.claudeSession, { session_id: session.sessionId, timestamp: isoTimestamp(session.createdAt), backend: session.backend });
}

/** Keeps the creation time when the same agent answers in the same session; a new id starts a new clock. */
export function rememberAgentSession(paths: RalphPaths, sessionId: string, backend: string, nowMs: number): void {
  if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) return;
  const current = readAgentSession(paths);
  if (current?.sessionId === sessionId && current.backend === backend) return;
  writeAgentSession(paths, { sessionId, createdAt: nowMs, backend });
}

function newRalphSession(nowMs: number): RalphSession {
  const iso = isoTimestamp(nowMs);
  return { session_id: `ralph-${Math.floor(nowMs / 1000)}-${randomBytes(3).toString('hex')}`, created_at: iso, last_used: iso, reset_at: '', reset_reason: '' };
}

/** Starts (or continues) the Ralph run session in .ralph_session. */
export function touchRalphSession(paths: RalphPaths, nowMs: number, warn: (m: string) => void): void {
  const current = loadDocument(paths, RALPH_SESSION, warn, nowMs);
  const session = current.session_id === '' ? newRalphSession(nowMs) : { ...current, last_used: isoTimestamp(nowMs) };
  saveDocument(paths, RALPH_SESSION, session);
}

/**
 * Forgets the agent session and the completion evidence that belongs to it
 * (stale signals must not end the next run), recording why.
 */
export function resetSession(paths: RalphPaths, reason: string, loop: number, nowMs: number, warn: (m: string) => void): void {
  rmSync(paths.claudeSession, { force: true });
  rmSync(paths.exitSignals, { force: true });
  rmSync(paths.responseAnalysis, { force: true });
  const iso = isoTimestamp(nowMs);
  saveDocument(paths, RALPH_SESSION, { session_id: '', created_at: '', last_used: '', reset_at: iso, reset_reason: reason });
  const history = loadDocument(paths, RALPH_SESSION_HISTORY, warn, nowMs);
  history.push({ timestamp: iso, from_state: 'active', to_state: 'reset', reason, loop_number: loop });
  saveDocument(paths, RALPH_SESSION_HISTORY, history.slice(-SESSION_HISTORY_LIMIT));
}
