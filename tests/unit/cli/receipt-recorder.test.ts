import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createReceiptRecorder } from '../../../src/cli/loop/receipt-recorder.js';
import type { Receipt } from '../../../src/core/receipt.js';
import { receiptSchema } from '../../../src/state/documents/receipt.js';
import { publishedSchema, schemaProblems } from '../../helpers/json-schema.js';
import { done, loopHarness, working } from '../engine/support/loop-harness.js';

/** The receipts a run's events make. */
function receiptsOf(events: Parameters<ReturnType<typeof createReceiptRecorder>>[0][], startLoop = 0): Receipt[] {
  const written: Receipt[] = [];
  const record = createReceiptRecorder({ runId: 'run-x', startLoop }, { backend: 'mock', model: 'm-1', now: () => 0 }, (r) => written.push(r));
  for (const e of events) record(e);
  return written;
}

describe('the receipt recorder over a real loop', () => {
  it('writes one receipt per iteration with its tokens, cost, verify, checkpoint and decision', async () => {
    const h = loopHarness({
      responses: [
        working({ cost_usd: 0.5, input_tokens: 100, output_tokens: 20, session_id: 'sess-1' }),
        done({ cost_usd: 0.25, cost_estimated: true, input_tokens: 50, output_tokens: 5 }),
      ],
      config: { maxLoops: 5 },
      gate: { results: [false, true], rollbackOnFail: true, maxAttempts: 3 },
    });
    await h.run();
    const receipts = receiptsOf(h.events);
    expect(receipts.map((r) => r.loop)).toEqual([1, 2]);
    const [first, second] = receipts as [Receipt, Receipt];
    expect(first).toMatchObject({
      run_id: 'run-x',
      backend: 'mock',
      model: 'm-1',
      session_id: 'sess-1',
      tokens: { input: 100, output: 20, cache_read: 0, cache_write: 0 },
      cost: { usd: 0.5, source: 'reported' },
      verify: { command: 'npm test', passed: false, attempt: 1, max_attempts: 3, decision: 'bounce' },
      checkpoint: { rollback: 'rolled_back' },
      exit: { decision: 'continue', reason: null },
    });
    expect(second).toMatchObject({
      cost: { usd: 0.25, source: 'estimated' },
      verify: { passed: true, decision: 'passed' },
      checkpoint: { rollback: 'dropped' },
      exit: { decision: 'stop', reason: 'project_complete' },
    });
    expect(first.checkpoint?.id).not.toBe(second.checkpoint?.id);
    const published = publishedSchema('receipt.schema.json');
    for (const r of receipts) {
      expect(schemaProblems(published, r)).toEqual([]);
      expect(v.parse(receiptSchema, r)).toEqual(r);
    }
  });

  it('numbers a resumed run on from where it was', async () => {
    const h = loopHarness({ responses: [done()], config: { maxLoops: 5 } });
    await h.run();
    const shifted = h.events.map((e) => ('iteration' in e && typeof e.iteration === 'number' ? { ...e, iteration: e.iteration + 7 } : e));
    const [r] = receiptsOf(shifted, 7);
    expect(r).toMatchObject({ loop: 8, iteration: 1 });
  });

  it('a dry run makes no call and writes no receipt', async () => {
    const h = loopHarness({ responses: [working()], config: { maxLoops: 2 }, dryRun: true });
    await h.run();
    expect(receiptsOf(h.events)).toEqual([]);
  });

  it('a usage limit is a wait with its reason, written before the wait', async () => {
    const h = loopHarness({ responses: [{ output: "You've hit your usage limit · resets 3pm (UTC)", exit_code: 1 }], config: { maxLoops: 1 } });
    const receipts: Receipt[] = [];
    const record = createReceiptRecorder({ runId: 'r', startLoop: 0 }, { backend: 'mock', model: null, now: () => 0 }, (r) => receipts.push(r));
    h.deps.emit = (e) => {
      h.events.push(e);
      record(e);
      // The receipt is on disk before the loop sleeps: a kill during the wait loses nothing.
      if (e.type === 'wait.start') {
        expect(receipts).toHaveLength(1);
        h.abort.abort('SIGINT');
      }
    };
    await h.run();
    expect(receipts[0]).toMatchObject({ outcome: 'usage_limit', retry: { reason: 'usage_limit' }, exit: { decision: 'wait', reason: 'usage_limit' } });
  });
});
