import { describe, expect, it } from 'vitest';
import { isAgentSessionExpired, parseStoredAgentSession } from '../../../src/core/agent-session-expiry.js';

const CREATED = Date.UTC(2026, 0, 15, 12, 0, 0);
const HOUR = 3_600_000;

describe('isAgentSessionExpired (spec §3: measured from creation, default 24 h)', () => {
  it.each([
    ['just created', 0, 24, false],
    ['one hour old', HOUR, 24, false],
    ['a minute short of 24 h', 24 * HOUR - 60_000, 24, false],
    ['exactly 24 h old', 24 * HOUR, 24, true],
    ['25 h old', 25 * HOUR, 24, true],
    ['2 h old with a 1 h expiry', 2 * HOUR, 1, true],
    ['created in the future (clock skew)', -60_000, 24, true],
  ])('%s → expired: %s', (_name, age, hours, expired) => {
    expect(isAgentSessionExpired({ sessionId: 's', createdAt: CREATED, backend: 'claude' }, CREATED + age, hours)).toBe(expired);
  });

  it('does not depend on when the session was last used (the original measured idle time, U§15.16)', () => {
    const session = { sessionId: 's', createdAt: CREATED, backend: 'claude' };
    // However often it was resumed, the age counts from creation.
    expect(isAgentSessionExpired(session, CREATED + 24 * HOUR + 1, 24)).toBe(true);
  });
});

describe('parseStoredAgentSession', () => {
  it.each([
    ['{"session_id": "abc-123", "timestamp": "2026-01-01T00:00:00Z"}', 'abc-123'],
    ['abc_DEF-123\n', 'abc_DEF-123'],
    ['  abc-123  \nsecond line', 'abc-123'],
    ['{"session_id": ""}', null],
    ['{broken', null],
    ['has spaces inside', null],
    ['', null],
  ])('%j → %j', (text, expected) => {
    expect(parseStoredAgentSession(text)?.sessionId ?? null).toBe(expected);
  });
});

describe('the backend a stored session belongs to', () => {
  it('is the one the file names', () => {
    expect(parseStoredAgentSession('{"session_id": "t-1", "timestamp": "2026-01-01T00:00:00Z", "backend": "codex"}')).toMatchObject({
      sessionId: 't-1',
      backend: 'codex',
    });
  });

  it.each([
    ['JSON without a backend', '{"session_id": "abc-123", "timestamp": "2026-01-01T00:00:00Z"}'],
    ["the original's plain text", 'abc-123\n'],
  ])("is Claude's for %s: older versions wrote it for Claude Code only", (_name, text) => {
    expect(parseStoredAgentSession(text)?.backend).toBe('claude');
  });
});
