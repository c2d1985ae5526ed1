import { describe, expect, it } from 'vitest';
import { normalizeCircuit } from '../../src/core/circuit-breaker.js';
import { parseStoredSession } from '../../src/core/session-expiry.js';
import { normalizeProgress } from '../../src/features/monitor/monitor-files.js';

describe('normalizeProgress', () => {
  it('reads the loop shape', () => {
    const doc = normalizeProgress({
      status: 'executing',
      indicator: '⠙',
      elapsed_seconds: 12,
      last_output: 'x',
      timestamp: '2026-01-01 10:00:00',
      loop: 3,
      current_tool: 'Bash: npm test',
      tool_uses: 4,
      started_at: '2026-01-01T10:00:00Z',
    });
    expect(doc).toMatchObject({ status: 'executing', loop: 3, current_tool: 'Bash: npm test', tool_uses: 4, started_at: '2026-01-01T10:00:00Z' });
  });
  it("reads the original's shape, filling what it lacks", () => {
    expect(normalizeProgress({ status: 'executing', indicator: '⠋', elapsed_seconds: 20, last_output: 'hi', timestamp: 't' })).toEqual({
      status: 'executing',
      indicator: '⠋',
      elapsed_seconds: 20,
      last_output: 'hi',
      timestamp: 't',
      loop: null,
      current_tool: null,
      tool_uses: 0,
      started_at: null,
    });
  });
  it.each([[null], [[]], ['executing'], [3]])('%j is corrupt', (value) => {
    expect(typeof normalizeProgress(value)).toBe('string');
  });
  it('gives damaged fields neutral values', () => {
    expect(normalizeProgress({ status: 7, tool_uses: 'many', loop: 'x' })).toMatchObject({ status: 'idle', tool_uses: 0, loop: null });
  });
});

describe('normalizeCircuit', () => {
  it('reads the state file', () => {
    const doc = normalizeCircuit({ state: 'OPEN', consecutive_no_progress: 3, total_opens: 1, reason: 'No progress', opened_at: '2026-01-01T00:00:00Z', current_loop: 9 });
    expect(doc).toMatchObject({ state: 'OPEN', consecutive_no_progress: 3, total_opens: 1, reason: 'No progress', opened_at: '2026-01-01T00:00:00Z', current_loop: 9, consecutive_failures: 0 });
  });
  it('accepts lower-case states', () => {
    expect(normalizeCircuit({ state: 'half_open' })).toMatchObject({ state: 'HALF_OPEN' });
  });
  it.each([[{ state: 'BROKEN' }], [{}], [null], [[1]]])('%j is corrupt', (value) => {
    expect(typeof normalizeCircuit(value)).toBe('string');
  });
});

describe('parseStoredSession', () => {
  it.each([
    ['{"session_id": "abc-123", "timestamp": "2026-01-01T00:00:00Z"}', 'abc-123'],
    ['abc_DEF-123\n', 'abc_DEF-123'],
    ['  abc-123  \nsecond line', 'abc-123'],
    ['{"session_id": ""}', null],
    ['{broken', null],
    ['has spaces inside', null],
    ['', null],
  ])('%j → %j', (text, expected) => {
    expect(parseStoredSession(text)?.sessionId ?? null).toBe(expected);
  });
});
