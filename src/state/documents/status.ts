import * as v from 'valibot';
import { emptyTotals, type StatusDocument } from '../../core/status-model.js';
import { finite, finiteOrNull, flag, listOf, neutralValue, objectOrNull, oneOf, record, text, textOrNull } from './lenient.js';
import type { RalphDocument } from '../document-store.js';

/**
 * status.json: the dashboard other tools read (published as
 * docs/schemas/status.schema.json). The original's fields come first; a file
 * it wrote lacks the rest, and damaged fields read as neutral values.
 */
const circuit = record(
  {
    state: text('UNKNOWN'),
    reason: text(),
    consecutive_no_progress: finite(),
    consecutive_failures: finite(),
    consecutive_same_error: finite(),
    total_opens: finite(),
  },
  'is not an object',
);

const totals = v.fallback(
  record(
    {
      cost_usd: finite(),
      cost_estimated: flag(),
      cost_unknown_calls: finite(),
      input_tokens: finite(),
      output_tokens: finite(),
      cache_read_input_tokens: finite(),
      cache_creation_input_tokens: finite(),
      num_turns: finite(),
      calls: finite(),
    },
    'is not an object',
  ),
  emptyTotals,
);

const limits = v.fallback(record({ max_loops: finite(), max_cost_usd: finite(), max_runtime_minutes: finite() }, 'is not an object'), () => ({
  max_loops: 0,
  max_cost_usd: 0,
  max_runtime_minutes: 0,
}));

const lastIteration = record(
  {
    loop: finite(),
    outcome: text(),
    result: text(),
    success: v.fallback(v.nullable(v.boolean()), null),
    duration_ms: finite(),
    cost_usd: finite(),
    cost_estimated: flag(),
    files_changed: finite(),
    exit_signal: v.fallback(v.nullable(v.boolean()), null),
    summary: text(),
    ended_at: text(),
  },
  'is not an object',
);

const verifyLast = record(
  {
    passed: flag(),
    exit_code: finiteOrNull(),
    timed_out: flag(),
    duration_ms: finite(),
    output_tail: text(),
    at: text(),
  },
  'is not an object',
);

const verify = record(
  {
    command: text(),
    state: oneOf(['idle', 'passing', 'failing', 'escalated', 'skipped', 'aborted'], 'idle'),
    attempt: finite(),
    max_attempts: finite(),
    last: objectOrNull(verifyLast),
  },
  'is not an object',
);

const waiting = record(
  {
    reason: oneOf(['rate_limit', 'usage_limit', 'api_retry', 'verify_gate', 'quota_window'], 'rate_limit'),
    until: textOrNull(),
    message: text(),
  },
  'is not an object',
);

const quotaWindow = record(
  {
    window: v.pipe(v.string(), v.nonEmpty()),
    status: oneOf(['allowed', 'warning', 'rejected'], 'allowed'),
    used_percent: finiteOrNull(),
    resets_at: textOrNull(),
  },
  'is not an object',
);

const review = record(
  {
    backend: text(),
    reviews: finite(),
    rejected_in_a_row: finite(),
    max_rejected: finite(),
    last_verdict: oneOf(['', 'APPROVED', 'CHANGES_REQUESTED'], ''),
    findings: v.fallback(v.array(v.string()), () => []),
    cost_usd: finite(),
    input_tokens: finite(),
    output_tokens: finite(),
  },
  'is not an object',
);

export const statusSchema: v.GenericSchema<unknown, StatusDocument> = record(
  {
    timestamp: text(),
    loop_count: finite(),
    calls_made_this_hour: finite(),
    max_calls_per_hour: finite(100),
    tokens_used_this_hour: finite(),
    max_tokens_per_hour: finite(),
    last_action: text(),
    status: text('unknown'),
    exit_reason: text(),
    next_reset: text(),
    sandbox: v.fallback(record({ provider: text('none') }, 'is not an object'), () => ({ provider: 'none' })),
    pid: finiteOrNull(),
    started_at: textOrNull(),
    project: text(),
    backend: text(),
    session_id: textOrNull(),
    exit_code: finiteOrNull(),
    message: text(),
    circuit: objectOrNull(circuit),
    totals,
    limits,
    last_iteration: objectOrNull(lastIteration),
    verify: objectOrNull(verify),
    waiting: objectOrNull(waiting),
    quota_windows: v.fallback(listOf(quotaWindow, 'is not a list'), []),
    max_tokens: finite(),
    review: objectOrNull(review),
  },
  'status.json does not contain a JSON object',
);

export const STATUS: RalphDocument<StatusDocument> = { path: (p) => p.status, schema: statusSchema, empty: neutralValue(statusSchema) };
