import { describe, expect, it } from 'vitest';
import { RECEIPT_LIMITS, buildReceipt, receiptRateLimit, receiptReview, sumReceipts, type ReceiptFacts } from '../../../src/core/receipt.js';

const T0 = Date.parse('2026-11-28T10:00:00Z');

function facts(over: Partial<ReceiptFacts> = {}): ReceiptFacts {
  return {
    runId: 'run-1',
    loop: 3,
    iteration: 3,
    backend: 'mock',
    model: null,
    startedAt: T0,
    endedAt: T0 + 1500,
    outcome: 'success',
    result: 'success',
    success: true,
    toolUses: 2,
    permissionDenials: [],
    filesChanged: 1,
    changedFiles: ['a.txt'],
    exit: { decision: 'continue' },
    ...over,
  };
}

describe('buildReceipt', () => {
  it('turns the facts into the published field names, nulls where nothing happened', () => {
    const r = buildReceipt(
      facts({ usage: { inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 3, cacheCreationInputTokens: 1 }, cost: { usd: 0.25, source: 'reported' } }),
    );
    expect(r).toMatchObject({
      version: 1,
      run_id: 'run-1',
      loop: 3,
      started_at: '2026-11-28T10:00:00+00:00',
      ended_at: '2026-11-28T10:00:01+00:00',
      duration_ms: 1500,
      tokens: { input: 10, output: 5, cache_read: 3, cache_write: 1 },
      cost: { usd: 0.25, source: 'reported' },
      verify: null,
      checkpoint: null,
      review: null,
      rate_limit: null,
      retry: null,
      exit: { decision: 'continue', reason: null, detail: null },
    });
  });

  it.each([
    [{}, { usd: null, source: 'none' }],
    [{ usage: { inputTokens: 9, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } }, { usd: null, source: 'unknown' }],
    [{ cost: { usd: 0.5, source: 'estimated' as const } }, { usd: 0.5, source: 'estimated' }],
  ])('says where the cost comes from (%j)', (over, cost) => {
    expect(buildReceipt(facts(over)).cost).toEqual(cost);
  });

  it('a checkpoint without a drop or rollback is kept', () => {
    expect(buildReceipt(facts({ checkpointId: 'cp1' })).checkpoint).toEqual({ id: 'cp1', rollback: 'kept' });
    expect(buildReceipt(facts({ checkpointId: 'cp1', checkpointOutcome: 'rolled_back' })).checkpoint).toEqual({ id: 'cp1', rollback: 'rolled_back' });
  });

  it('stays one bounded line whatever the agent did', () => {
    const many = Array.from({ length: 500 }, (_, i) => `${'deep/'.repeat(60)}${i}.txt`);
    const denials = Array.from({ length: 100 }, () => ({ tool: 'Bash', detail: 'x'.repeat(5000) }));
    const r = buildReceipt(facts({ changedFiles: many, filesChanged: 500, permissionDenials: denials, result: 'y'.repeat(10_000) }));
    expect(JSON.stringify(r).length).toBeLessThanOrEqual(RECEIPT_LIMITS.line);
    expect(r.files_changed).toBe(500);
    expect(r.result.length).toBeLessThanOrEqual(RECEIPT_LIMITS.text);
    expect(r.denials.length).toBeLessThanOrEqual(RECEIPT_LIMITS.denials);
  });

  it('hides a secret before clipping a text, so no half of it is left to escape the redaction', () => {
    const secret = '/run/user/1000/gnupg/SECRET0014:0:1';
    const command = `${'x'.repeat(480)} '${secret}' tail`;
    const redact = (text: string): string => text.split(secret).join('[REDACTED]');
    const r = buildReceipt(
      facts({ verify: { command, passed: false, exit_code: 1, timed_out: false, duration_ms: 1, attempt: 1, max_attempts: 1, decision: 'escalate' } }),
      redact,
    );
    expect(r.verify?.command).toContain('[REDACTED]');
    expect(r.verify?.command).not.toContain('/run/user/1000');
    expect(
      buildReceipt(
        facts({ verify: { command, passed: false, exit_code: 1, timed_out: false, duration_ms: 1, attempt: 1, max_attempts: 1, decision: 'escalate' } }),
      ).verify?.command,
    ).toContain('/run/user/1000');
  });

  it('never writes a negative or fractional count', () => {
    const r = buildReceipt(
      facts({ toolUses: -3, turns: 2.6, usage: { inputTokens: Number.NaN, outputTokens: 4, cacheReadInputTokens: -1, cacheCreationInputTokens: 0 } }),
    );
    expect(r.tool_uses).toBe(0);
    expect(r.turns).toBe(3);
    expect(r.tokens).toEqual({ input: 0, output: 4, cache_read: 0, cache_write: 0 });
  });
});

describe('sumReceipts', () => {
  it('adds what the run spent, as the loop counts it', () => {
    const a = buildReceipt(
      facts({
        cost: { usd: 1.25, source: 'reported' },
        turns: 2,
        usage: { inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 5, cacheCreationInputTokens: 2 },
      }),
    );
    const b = buildReceipt(
      facts({
        loop: 4,
        cost: { usd: 0.5, source: 'estimated' },
        turns: 1,
        usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      }),
    );
    const c = buildReceipt(facts({ loop: 5, usage: { inputTokens: 7, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } }));
    expect(sumReceipts([a, b, c])).toEqual({
      cost_usd: 1.75,
      cost_estimated: true,
      cost_unknown_calls: 1,
      input_tokens: 108,
      output_tokens: 11,
      cache_read_input_tokens: 5,
      cache_creation_input_tokens: 2,
      num_turns: 3,
      calls: 3,
    });
  });
});

describe('receiptRateLimit', () => {
  const reset = Date.parse('2026-11-30T00:00:00Z');
  it.each([
    ['no window reported', undefined, undefined],
    ['an empty report', [], undefined],
    [
      'a warning before a more used but allowed window',
      [
        { kind: 'five_hour', status: 'allowed' as const, usedPercent: 90 },
        { kind: 'seven_day', status: 'warning' as const, usedPercent: 76, resetsAt: reset },
      ],
      { window: 'seven_day', status: 'warning', resets_at: '2026-11-30T00:00:00+00:00', used_percent: 76 },
    ],
    [
      'a rejected window before a warned one',
      [
        { kind: 'seven_day', status: 'warning' as const },
        { kind: 'five_hour', status: 'rejected' as const, resetsAt: reset },
      ],
      { window: 'five_hour', status: 'rejected', resets_at: '2026-11-30T00:00:00+00:00', used_percent: null },
    ],
    [
      'of two allowed windows the more used',
      [
        { kind: 'five_hour', status: 'allowed' as const, usedPercent: 12 },
        { kind: 'seven_day', status: 'allowed' as const, usedPercent: 40 },
      ],
      { window: 'seven_day', status: 'allowed', resets_at: null, used_percent: 40 },
    ],
  ])('%s', (_name, windows, expected) => {
    expect(receiptRateLimit(windows)).toEqual(expected);
  });
});

describe('a reviewed iteration', () => {
  it('is two calls in the sum: the worker and the reviewer, each with its tokens and cost', () => {
    const review = receiptReview({
      verdict: 'CHANGES_REQUESTED',
      findings: ['add a test', 'name the flag'],
      backend: 'claude',
      run: {
        usage: { inputTokens: 300, outputTokens: 20, cacheReadInputTokens: 50, cacheCreationInputTokens: 5 },
        cost: { usd: 0.1, source: 'reported' },
        turns: 2,
      },
    });
    expect(review).toEqual({
      verdict: 'CHANGES_REQUESTED',
      findings_count: 2,
      backend: 'claude',
      tokens: { input: 300, output: 20, cache_read: 50, cache_write: 5 },
      cost: { usd: 0.1, source: 'reported' },
      turns: 2,
    });
    const worker = buildReceipt(
      facts({
        usage: { inputTokens: 1000, outputTokens: 100, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
        cost: { usd: 0.5, source: 'reported' },
        turns: 3,
      }),
    );
    const totals = sumReceipts([{ ...worker, review }]);
    expect(totals).toMatchObject({
      calls: 2,
      input_tokens: 1300,
      output_tokens: 120,
      cache_read_input_tokens: 50,
      cache_creation_input_tokens: 5,
      num_turns: 5,
    });
    expect(totals.cost_usd).toBeCloseTo(0.6);
  });
});
