import { describe, expect, it } from 'vitest';
import { buildReceipt, type ReceiptFacts } from '../../../../src/core/receipt.js';
import { formatReceiptStats, summarizeReceipts } from '../../../../src/features/observe/receipt-stats.js';

function receipt(over: Partial<ReceiptFacts>) {
  return buildReceipt({
    runId: 'a',
    loop: 1,
    iteration: 1,
    backend: 'mock',
    model: null,
    startedAt: 0,
    endedAt: 1,
    outcome: 'success',
    result: 'success',
    success: true,
    toolUses: 2,
    permissionDenials: [],
    filesChanged: 1,
    changedFiles: ['x'],
    exit: { decision: 'continue' },
    ...over,
  });
}

describe('ralph-stats over the receipts', () => {
  const receipts = [
    receipt({ cost: { usd: 0.5, source: 'reported' }, usage: { inputTokens: 10, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } }),
    receipt({ loop: 2, iteration: 2, cost: { usd: 0.25, source: 'estimated' }, checkpointId: 'c', checkpointOutcome: 'rolled_back' }),
    receipt({
      runId: 'b',
      loop: 5,
      iteration: 1,
      usage: { inputTokens: 3, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      permissionDenials: [{ tool: 'Bash', detail: 'rm' }],
      verify: { command: 't', passed: true, exit_code: 0, timed_out: false, duration_ms: 1, attempt: 1, max_attempts: 3, decision: 'passed' },
      exit: { decision: 'stop', reason: 'project_complete' },
    }),
  ];

  it('adds up what the runs spent and did, and what came after each iteration', () => {
    expect(summarizeReceipts(receipts, 1)).toEqual({
      receipts: 3,
      runs: 2,
      resumed_runs: 1,
      tokens: { input: 13, output: 1, cache_read: 0, cache_write: 0 },
      cost_usd: { total: 0.75, reported: 0.5, estimated: 0.25, unknown_receipts: 1 },
      tool_uses: 6,
      denials: 1,
      files_changed: 3,
      verify: { runs: 1, passed: 1 },
      checkpoints: { dropped: 0, rolled_back: 1, kept: 0 },
      decisions: { continue: 2, 'stop: project_complete': 1 },
      skipped_lines: 1,
    });
  });

  it('reads as a block of its own', () => {
    const text = formatReceiptStats(summarizeReceipts(receipts, 0), '/p/.ralph/logs/receipts.jsonl');
    expect(text).toContain('Ralph receipts · /p/.ralph/logs/receipts.jsonl');
    expect(text).toContain('  Receipts      3 over 2 runs (1 resumed after a crash)');
    expect(text).toContain('  Cost          $0.7500 (reported $0.5000 · estimated $0.2500 · unknown for 1)');
    expect(text).toContain('  Decisions     continue 2 · stop: project_complete 1');
  });
});
