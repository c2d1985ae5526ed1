import { describe, expect, it } from 'vitest';
import { emptyTotals, type StatusDocument } from '../../../../src/core/status-model.js';
import { statusSchema } from '../../../../src/state/documents/status.js';
import { parseOrReason } from '../../../helpers/parse-document.js';

const normalizeStatus = (value: unknown) => parseOrReason(statusSchema, value);

const FULL: StatusDocument = {
  timestamp: '2026-01-15T12:00:00+00:00',
  loop_count: 7,
  calls_made_this_hour: 7,
  max_calls_per_hour: 100,
  tokens_used_this_hour: 1200,
  max_tokens_per_hour: 0,
  last_action: 'completed',
  status: 'success',
  exit_reason: '',
  next_reset: '2026-01-15T13:00:00+00:00',
  sandbox: { provider: 'none' },
  pid: 4242,
  started_at: '2026-01-15T11:00:00+00:00',
  project: '/work/app',
  backend: 'claude',
  session_id: 'sess-1',
  exit_code: null,
  message: '',
  circuit: { state: 'CLOSED', reason: '', consecutive_no_progress: 0, consecutive_failures: 0, consecutive_same_error: 0, total_opens: 1 },
  totals: {
    cost_usd: 1.25,
    cost_estimated: true,
    cost_unknown_calls: 0,
    input_tokens: 100,
    output_tokens: 50,
    cache_read_input_tokens: 7,
    cache_creation_input_tokens: 3,
    num_turns: 12,
    calls: 7,
  },
  limits: { max_loops: 10, max_cost_usd: 5, max_runtime_minutes: 60 },
  last_iteration: {
    loop: 7,
    outcome: 'success',
    result: 'verify failed, rolled back',
    success: false,
    duration_ms: 1234,
    cost_usd: 0.2,
    cost_estimated: true,
    files_changed: 2,
    exit_signal: false,
    summary: 'Wrote tests',
    ended_at: '2026-01-15T12:00:00+00:00',
  },
  verify: {
    command: 'npm test',
    state: 'failing',
    attempt: 2,
    max_attempts: 5,
    last: { passed: false, exit_code: 1, timed_out: false, duration_ms: 900, output_tail: 'FAIL x', at: '2026-01-15T12:00:00+00:00' },
  },
  waiting: { reason: 'usage_limit', until: '2026-01-15T14:39:00+00:00', message: 'resets 2:39pm' },
  quota_windows: [{ window: 'seven_day', status: 'warning', used_percent: 81, resets_at: '2026-01-18T09:00:00Z' }],
  max_tokens: 500_000,
  review: {
    backend: 'codex',
    reviews: 2,
    rejected_in_a_row: 1,
    max_rejected: 3,
    last_verdict: 'CHANGES_REQUESTED',
    findings: ['add a test for empty input'],
    cost_usd: 0.02,
    input_tokens: 900,
    output_tokens: 40,
  },
};

describe('status.json schema', () => {
  it.each([null, undefined, 'running', 42, [], [FULL]])('reports %j as corrupt', (value) => {
    expect(normalizeStatus(value)).toBe('status.json does not contain a JSON object');
  });

  it('returns a complete document unchanged', () => {
    expect(normalizeStatus(JSON.parse(JSON.stringify(FULL)))).toEqual(FULL);
  });

  it('reads a file written before costs could be estimates as reported costs', () => {
    const old = JSON.parse(JSON.stringify(FULL)) as { totals: Record<string, unknown>; last_iteration: Record<string, unknown> };
    delete old.totals['cost_estimated'];
    delete old.last_iteration['cost_estimated'];
    expect(normalizeStatus(old)).toEqual({
      ...FULL,
      totals: { ...FULL.totals, cost_estimated: false },
      last_iteration: { ...FULL.last_iteration, cost_estimated: false },
    });
  });

  it('fills neutral defaults for an empty object', () => {
    expect(normalizeStatus({})).toEqual({
      timestamp: '',
      loop_count: 0,
      calls_made_this_hour: 0,
      max_calls_per_hour: 100,
      tokens_used_this_hour: 0,
      max_tokens_per_hour: 0,
      last_action: '',
      status: 'unknown',
      exit_reason: '',
      next_reset: '',
      sandbox: { provider: 'none' },
      pid: null,
      started_at: null,
      project: '',
      backend: '',
      session_id: null,
      exit_code: null,
      message: '',
      circuit: null,
      totals: emptyTotals(),
      limits: { max_loops: 0, max_cost_usd: 0, max_runtime_minutes: 0 },
      last_iteration: null,
      verify: null,
      waiting: null,
      quota_windows: [],
      max_tokens: 0,
      review: null,
    });
  });

  it('reads a status.json written by the original (U§2)', () => {
    const original = {
      timestamp: '2026-01-15T12:00:00-05:00',
      loop_count: 5,
      calls_made_this_hour: 5,
      max_calls_per_hour: 100,
      last_action: 'graceful_exit',
      status: 'completed',
      exit_reason: 'completion_signals',
      next_reset: '13:00:00',
    };
    const s = normalizeStatus(original);
    expect(s).toMatchObject(original);
    if (typeof s === 'string') return;
    expect(s.circuit).toBeNull();
    expect(s.totals).toEqual(emptyTotals());
    expect(s.sandbox).toEqual({ provider: 'none' });
  });

  it('repairs damaged fields without throwing', () => {
    const s = normalizeStatus({
      loop_count: 'five',
      max_calls_per_hour: Number.POSITIVE_INFINITY,
      status: 7,
      pid: '4242',
      exit_code: 3,
      sandbox: 'docker',
      circuit: { state: 3, total_opens: 'x' },
      totals: { cost_usd: '1.5', calls: 2 },
      limits: null,
      last_iteration: { loop: 2, exit_signal: 'true' },
      verify: { state: 'weird', last: 'nope' },
      waiting: { reason: 'nap', until: 5 },
      quota_windows: [{ window: 'five_hour', status: 'odd', used_percent: '12' }, 'junk', { status: 'warning' }],
    });
    if (typeof s === 'string') throw new Error(s);
    expect(s.loop_count).toBe(0);
    expect(s.max_calls_per_hour).toBe(100);
    expect(s.status).toBe('unknown');
    expect(s.pid).toBeNull();
    expect(s.exit_code).toBe(3);
    expect(s.sandbox).toEqual({ provider: 'none' });
    expect(s.circuit).toEqual({ state: 'UNKNOWN', reason: '', consecutive_no_progress: 0, consecutive_failures: 0, consecutive_same_error: 0, total_opens: 0 });
    expect(s.totals).toEqual({ ...emptyTotals(), calls: 2 });
    expect(s.limits).toEqual({ max_loops: 0, max_cost_usd: 0, max_runtime_minutes: 0 });
    expect(s.last_iteration).toMatchObject({ loop: 2, exit_signal: null, outcome: '' });
    expect(s.verify).toEqual({ command: '', state: 'idle', attempt: 0, max_attempts: 0, last: null });
    expect(s.waiting).toEqual({ reason: 'rate_limit', until: null, message: '' });
    // A window read as far as it can be; entries that are no window at all are dropped.
    expect(s.quota_windows).toEqual([{ window: 'five_hour', status: 'allowed', used_percent: null, resets_at: null }]);
  });

  it.each(['idle', 'passing', 'failing', 'escalated', 'skipped', 'aborted'] as const)('keeps the verify state %s', (state) => {
    const s = normalizeStatus({ verify: { state } });
    if (typeof s === 'string') throw new Error(s);
    expect(s.verify?.state).toBe(state);
  });

  it.each(['rate_limit', 'usage_limit', 'api_retry', 'verify_gate'] as const)('keeps the waiting reason %s', (reason) => {
    const s = normalizeStatus({ waiting: { reason, until: null } });
    if (typeof s === 'string') throw new Error(s);
    expect(s.waiting?.reason).toBe(reason);
  });

  it('ignores unknown extra fields', () => {
    const s = normalizeStatus({ ...FULL, extra: 'x', __proto__: { polluted: true } });
    expect(s).toEqual(FULL);
  });
});
