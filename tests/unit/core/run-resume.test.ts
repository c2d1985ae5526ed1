import { describe, expect, it } from 'vitest';
import { buildReceipt, type Receipt } from '../../../src/core/receipt.js';
import { decideResume, describeResume, type ResumeInputs } from '../../../src/core/run-resume.js';

function receipt(runId: string, loop: number, usd: number, tokens = 100, sessionId?: string): Receipt {
  return buildReceipt({
    runId,
    loop,
    iteration: loop,
    backend: 'mock',
    model: null,
    startedAt: 0,
    endedAt: 1000,
    outcome: 'success',
    result: 'success',
    success: true,
    toolUses: 0,
    permissionDenials: [],
    filesChanged: 0,
    changedFiles: [],
    usage: { inputTokens: tokens, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    cost: { usd, source: 'reported' },
    ...(sessionId ? { sessionId } : {}),
    exit: { decision: 'continue' },
  });
}

const crashed = { pid: 4242, runId: 'run-b' };
const running = { pid: 4242, loop_count: 3, exit_code: null };
const receipts = [receipt('run-a', 1, 9), receipt('run-a', 2, 9), receipt('run-b', 1, 1), receipt('run-b', 2, 2.12, 100, 'sess-1')];

describe('decideResume', () => {
  it.each<[string, ResumeInputs, string]>([
    ['the last run removed its run file: it ended', { fresh: false, leftBehind: undefined, status: running, receipts }, 'new:clean_end'],
    ['--fresh', { fresh: true, leftBehind: crashed, status: running, receipts }, 'new:fresh'],
    ['status.json of that process holds an exit code', { fresh: false, leftBehind: crashed, status: { ...running, exit_code: 7 }, receipts }, 'new:clean_end'],
    [
      'a run file without a run id (an older Ralph)',
      { fresh: false, leftBehind: { pid: 4242, runId: null }, status: running, receipts },
      'new:nothing_to_resume',
    ],
    [
      'killed before its first iteration',
      { fresh: false, leftBehind: { pid: 4242, runId: 'run-c' }, status: { ...running, loop_count: 0 }, receipts },
      'new:nothing_to_resume',
    ],
    ['killed during loop 3', { fresh: false, leftBehind: crashed, status: running, receipts }, 'resume:3'],
    [
      'status.json of another process: the receipts say where it was',
      { fresh: false, leftBehind: crashed, status: { ...running, pid: 1, exit_code: 0 }, receipts },
      'resume:2',
    ],
    ['no status.json at all', { fresh: false, leftBehind: crashed, status: undefined, receipts }, 'resume:2'],
    [
      'killed before its first receipt was written, during loop 1',
      { fresh: false, leftBehind: { pid: 4242, runId: 'run-c' }, status: { ...running, loop_count: 1 }, receipts },
      'resume:1',
    ],
  ])('%s', (_name, input, expected) => {
    const d = decideResume(input);
    expect(d.kind === 'new' ? `new:${d.why}` : `resume:${d.crashedAt}`).toBe(expected);
  });

  it('restores the totals of the crashed run only: the sum of its receipts', () => {
    const d = decideResume({ fresh: false, leftBehind: crashed, status: running, receipts });
    expect(d.kind).toBe('resume');
    if (d.kind !== 'resume') return;
    expect(d.runId).toBe('run-b');
    expect(d.receipts).toBe(2);
    expect(d.totals.cost_usd).toBeCloseTo(3.12);
    expect(d.totals.input_tokens).toBe(200);
    expect(d.totals.calls).toBe(2);
    expect(d.sessionId).toBe('sess-1');
  });

  it('says so in one line', () => {
    const d = decideResume({ fresh: false, leftBehind: crashed, status: { ...running, loop_count: 7 }, receipts });
    if (d.kind !== 'resume') throw new Error('expected a resume');
    expect(describeResume(d, { callsThisHour: 4, circuit: 'CLOSED' })).toBe(
      'Resuming run run-b after a crash at loop 7: $3.12 spent, 200 tokens over 2 receipts, 4 calls this hour, circuit CLOSED, agent session sess-1. The next loop is 8; ralph --fresh starts a new run instead.',
    );
  });
});
