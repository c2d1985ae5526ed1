import * as v from 'valibot';
import type { Receipt } from '../../core/receipt.js';

/**
 * One line of `.ralph/logs/receipts.jsonl` (published as docs/schemas/receipt.schema.json).
 * Strict: a receipt is Ralph's own record of money spent, so a line that does not fit is reported
 * and skipped, never half-read.
 */
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const nullableText = v.nullable(v.string());

const verify = v.object({
  command: v.string(),
  passed: v.boolean(),
  exit_code: v.nullable(v.number()),
  timed_out: v.boolean(),
  duration_ms: v.number(),
  attempt: count,
  max_attempts: count,
  decision: v.picklist(['passed', 'bounce', 'escalate']),
});

const tokens = v.object({ input: count, output: count, cache_read: count, cache_write: count });
const cost = v.object({ usd: v.nullable(v.pipe(v.number(), v.finite(), v.minValue(0))), source: v.picklist(['reported', 'estimated', 'unknown', 'none']) });

export const receiptSchema = v.object({
  version: v.literal(1),
  run_id: v.pipe(v.string(), v.nonEmpty()),
  loop: v.pipe(count, v.minValue(1)),
  iteration: v.pipe(count, v.minValue(1)),
  backend: v.string(),
  model: nullableText,
  session_id: nullableText,
  started_at: v.string(),
  ended_at: v.string(),
  duration_ms: count,
  outcome: v.string(),
  result: v.string(),
  success: v.boolean(),
  tokens,
  cost,
  turns: count,
  tool_uses: count,
  denials: v.array(v.object({ tool: v.string(), detail: v.string() })),
  files_changed: count,
  changed_files: v.array(v.string()),
  verify: v.nullable(verify),
  checkpoint: v.nullable(v.object({ id: v.string(), rollback: v.picklist(['dropped', 'rolled_back', 'kept']) })),
  review: v.nullable(v.object({ verdict: v.string(), findings_count: count, backend: v.string(), tokens, cost, turns: count })),
  rate_limit: v.nullable(v.object({ window: v.string(), status: v.string(), resets_at: nullableText, used_percent: v.nullable(v.number()) })),
  calls_this_hour: v.nullable(count),
  retry: v.nullable(v.object({ reason: v.string(), attempt: v.nullable(count) })),
  exit: v.object({ decision: v.picklist(['continue', 'wait', 'stop']), reason: nullableText, detail: nullableText }),
}) satisfies v.GenericSchema<unknown, Receipt>;
