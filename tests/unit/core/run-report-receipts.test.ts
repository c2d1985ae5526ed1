import { describe, expect, it } from 'vitest';
import { buildReceipt, type Receipt } from '../../../src/core/receipt.js';
import { buildRunReport, receiptsOfRun } from '../../../src/core/run-report.js';

const T = Date.parse('2026-11-28T10:00:00Z');

function receipt(
  runId: string,
  loop: number,
  endedAt: number,
  cost: { usd: number; source: 'reported' | 'estimated' } = { usd: 0.5, source: 'reported' },
): Receipt {
  return buildReceipt({
    runId,
    loop,
    iteration: loop,
    backend: 'mock',
    model: null,
    startedAt: endedAt - 10,
    endedAt,
    outcome: 'success',
    result: 'success',
    success: true,
    toolUses: 0,
    permissionDenials: [],
    filesChanged: 0,
    changedFiles: [],
    usage: { inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 1, cacheCreationInputTokens: 2 },
    cost,
    exit: { decision: 'continue' },
  });
}

describe('the run report from the receipts', () => {
  const receipts = [receipt('old', 1, T - 90_000), receipt('crashed', 1, T - 60_000), receipt('crashed', 2, T - 30_000), receipt('crashed', 3, T + 5_000)];

  it('counts the receipts of the run that ended, those before its crash included', () => {
    const facts = receiptsOfRun(receipts, T);
    expect(facts).toMatchObject({ runId: 'crashed', count: 3, totals: { input_tokens: 300, output_tokens: 30 } });
    const report = buildRunReport({
      exitCode: 7,
      fallbackReason: 'error',
      branch: undefined,
      startedIso: '',
      endedIso: '',
      ...(facts ? { receipts: facts } : {}),
    });
    expect(report).toMatchObject({ run_id: 'crashed', receipts: 3, tokens: { input: 300, output: 30, cache_read: 3, cache_write: 6 } });
  });

  it('a run that wrote no receipt since it started has none (an earlier run’s are not its own)', () => {
    expect(receiptsOfRun(receipts, T + 60_000)).toBeUndefined();
    expect(receiptsOfRun([], T)).toBeUndefined();
    expect(buildRunReport({ exitCode: 2, fallbackReason: 'usage_error', branch: undefined, startedIso: '', endedIso: '' })).toMatchObject({
      run_id: null,
      receipts: 0,
      tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
    });
  });

  const status = { exit_reason: 'max_loops', loop_count: 3, backend: 'mock', totals: { cost_usd: 0.1, cost_estimated: false } };
  const report = (facts: ReturnType<typeof receiptsOfRun>, withStatus = true) =>
    buildRunReport({
      exitCode: 7,
      fallbackReason: 'error',
      branch: undefined,
      startedIso: '',
      endedIso: '',
      ...(withStatus ? { status } : {}),
      ...(facts ? { receipts: facts } : {}),
    });

  it('takes the cost from the receipts when there are any, those before a crash included, not from status.json', () => {
    expect(report(receiptsOfRun(receipts, T))).toMatchObject({ cost_usd: 1.5, cost_estimated: false, iterations: 3 });
    const estimated = [
      ...receipts,
      receipt('crashed', 4, T + 6_000, { usd: 0.1, source: 'estimated' }),
      receipt('crashed', 5, T + 7_000, { usd: 0.2, source: 'estimated' }),
    ];
    // 0.5 × 3 + 0.1 + 0.2 adds up to 1.8000000000000003 in floating point: the report says 1.8.
    expect(report(receiptsOfRun(estimated, T))).toMatchObject({ cost_usd: 1.8, cost_estimated: true });
  });

  it('falls back to status.json without receipts (a run that made no call), and to 0 without either', () => {
    expect(report(undefined)).toMatchObject({ cost_usd: 0.1, cost_estimated: false });
    expect(report(undefined, false)).toMatchObject({ cost_usd: 0, cost_estimated: false });
  });
});
