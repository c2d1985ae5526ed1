import { describe, expect, it } from 'vitest';
import { buildReceipt } from '../../../../../src/core/receipt.js';
import { receiptPoints } from '../../../../../src/features/observe/dashboard/loop-view.js';

function receipt(loop: number, usd: number | null, passed: boolean | null) {
  return buildReceipt({
    runId: 'r',
    loop,
    iteration: loop,
    backend: 'mock',
    model: null,
    startedAt: 0,
    endedAt: 2500,
    outcome: 'success',
    result: 'success',
    success: true,
    toolUses: 0,
    permissionDenials: [],
    filesChanged: 0,
    changedFiles: [],
    usage: { inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 5, cacheCreationInputTokens: 0 },
    ...(usd !== null ? { cost: { usd, source: 'reported' as const } } : {}),
    ...(passed !== null
      ? {
          verify: {
            command: 't',
            passed,
            exit_code: passed ? 0 : 1,
            timed_out: false,
            duration_ms: 1,
            attempt: 1,
            max_attempts: 3,
            decision: passed ? ('passed' as const) : ('bounce' as const),
          },
        }
      : {}),
    exit: { decision: 'continue' },
  });
}

describe('the dashboard charts from the receipts', () => {
  it('one point per receipt with running totals; an unknown cost counts as nothing spent', () => {
    expect(receiptPoints([receipt(1, 0.5, false), receipt(2, null, null), receipt(3, 0.25, true)])).toEqual([
      {
        index: 1,
        loop: 1,
        durationSec: 2.5,
        costUsd: 0.5,
        tokens: 115,
        cumulativeCostUsd: 0.5,
        cumulativeTokens: 115,
        verifyPassed: false,
        outcome: 'success',
      },
      { index: 2, loop: 2, durationSec: 2.5, costUsd: 0, tokens: 115, cumulativeCostUsd: 0.5, cumulativeTokens: 230, verifyPassed: null, outcome: 'success' },
      {
        index: 3,
        loop: 3,
        durationSec: 2.5,
        costUsd: 0.25,
        tokens: 115,
        cumulativeCostUsd: 0.75,
        cumulativeTokens: 345,
        verifyPassed: true,
        outcome: 'success',
      },
    ]);
  });
});
