import { readFileSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isoTimestamp, parseIso } from '../core/time-format.js';
import { isRecord, loadStateFile, writeJsonAtomic } from './json-file.js';
import type { RalphPaths } from './paths.js';

/**
 * Claude session continuity: the id to `--resume`, kept as
 * `{"session_id", "timestamp"}` in .claude_session_id. Expiry is measured from
 * the session's creation — the original measured idle time because it rewrote
 * the file every loop.
 */
export type { StoredSession } from '../core/session-expiry.js';
import { parseStoredSession, type StoredSession } from '../core/session-expiry.js';

export function readClaudeSession(paths: RalphPaths): StoredSession | undefined {
  let text: string;
  try {
    text = readFileSync(paths.claudeSession, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = parseStoredSession(text);
  if (!parsed) return undefined;
  return { sessionId: parsed.sessionId, createdAt: parseIso(parsed.timestamp) ?? statSync(paths.claudeSession).mtimeMs };
}

export function writeClaudeSession(paths: RalphPaths, session: StoredSession): void {
  writeJsonAtomic(paths.claudeSession, { session_id: session.sessionId, timestamp: isoTimestamp(session.createdAt) });
}

/** Keeps the creation time when Claude answers in the same session; a new id starts a new clock. */
export function rememberSession(paths: RalphPaths, sessionId: string, nowMs: number): void {
  if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) return;
  const current = readClaudeSession(paths);
  if (current?.sessionId === sessionId) return;
  writeClaudeSession(paths, { sessionId, createdAt: nowMs });
}

interface RalphSession {
  session_id: string;
  created_at: string;
  last_used: string;
  reset_at: string;
  reset_reason: string;
}

interface SessionTransition {
  timestamp: string;
  from_state: string;
  to_state: string;
  reason: string;
  loop_number: number;
}

export const SESSION_HISTORY_LIMIT = 50;

function normalizeRalphSession(value: unknown): RalphSession | string {
  if (!isRecord(value)) return 'not a JSON object';
  const str = (k: string): string => (typeof value[k] === 'string' ? (value[k] as string) : '');
  return { session_id: str('session_id'), created_at: str('created_at'), last_used: str('last_used'), reset_at: str('reset_at'), reset_reason: str('reset_reason') };
}

function newRalphSession(nowMs: number): RalphSession {
  const iso = isoTimestamp(nowMs);
  return { session_id: `ralph-${Math.floor(nowMs / 1000)}-${randomBytes(3).toString('hex')}`, created_at: iso, last_used: iso, reset_at: '', reset_reason: '' };
}

/** Starts (or continues) the Ralph run session in .ralph_session. */
export function touchRalphSession(paths: RalphPaths, nowMs: number, warn: (m: string) => void): void {
  const current = loadStateFile(paths.ralphSession, normalizeRalphSession, () => newRalphSession(nowMs), warn);
  const session = current.session_id === '' ? newRalphSession(nowMs) : { ...current, last_used: isoTimestamp(nowMs) };
  writeJsonAtomic(paths.ralphSession, session);
}

/**
 * Forgets the Claude session and the completion evidence that belongs to it
 * (stale signals must not end the next run), recording why.
 */
export function resetSession(paths: RalphPaths, reason: string, loop: number, nowMs: number, warn: (m: string) => void): void {
  rmSync(paths.claudeSession, { force: true });
  rmSync(paths.exitSignals, { force: true });
  rmSync(paths.responseAnalysis, { force: true });
  const iso = isoTimestamp(nowMs);
  writeJsonAtomic(paths.ralphSession, { session_id: '', created_at: '', last_used: '', reset_at: iso, reset_reason: reason });
  const history = loadStateFile<SessionTransition[]>(
    paths.ralphSessionHistory,
    (v) => (Array.isArray(v) ? (v.filter(isRecord) as unknown as SessionTransition[]) : 'not a JSON array'),
    () => [],
    warn,
  );
  history.push({ timestamp: iso, from_state: 'active', to_state: 'reset', reason, loop_number: loop });
  writeJsonAtomic(paths.ralphSessionHistory, history.slice(-SESSION_HISTORY_LIMIT));
}
