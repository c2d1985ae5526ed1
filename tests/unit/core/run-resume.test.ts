import { describe, expect, it } from 'vitest';
import { buildReceipt, type Receipt } from '../../../src/core/receipt.js';
import { PLAN_RUN, runKindOf } from '../../../src/core/run-kind.js';
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

const crashed = { pid: 4242, runId: 'run-b', kind: PLAN_RUN };
const running = { pid: 4242, loop_count: 3, exit_code: null };
const receipts = [receipt('run-a', 1, 9), receipt('run-a', 2, 9), receipt('run-b', 1, 1), receipt('run-b', 2, 2.12, 100, 'sess-1')];

const TASK_A = runKindOf('Add a --json flag');
const TASK_B = runKindOf('Fix the login redirect');

describe('runKindOf', () => {
  it('is plan without a task, and a digest of the task text with one (never the text)', () => {
    expect(runKindOf(undefined)).toBe('plan');
    expect(runKindOf('')).toBe('plan');
    expect(TASK_A).toMatch(/^task:[0-9a-f]{16}$/);
    expect(TASK_A).toBe(runKindOf('Add a --json flag'));
    expect(TASK_B).not.toBe(TASK_A);
  });
});

describe('decideResume', () => {
  it.each<[string, ResumeInputs, string]>([
    ['the last run removed its run file: it ended', { fresh: false, leftBehind: undefined, status: running, receipts, kind: PLAN_RUN }, 'new:clean_end'],
    ['--fresh', { fresh: true, leftBehind: crashed, status: running, receipts, kind: PLAN_RUN }, 'new:fresh'],
    [
      'status.json of that process holds an exit code',
      { fresh: false, leftBehind: crashed, status: { ...running, exit_code: 7 }, receipts, kind: PLAN_RUN },
      'new:clean_end',
    ],
    [
      'a run file without a run id (an older Ralph)',
      { fresh: false, leftBehind: { pid: 4242, runId: null, kind: PLAN_RUN }, status: running, receipts, kind: PLAN_RUN },
      'new:nothing_to_resume',
    ],
    [
      'killed before its first iteration',
      { fresh: false, leftBehind: { pid: 4242, runId: 'run-c', kind: PLAN_RUN }, status: { ...running, loop_count: 0 }, receipts, kind: PLAN_RUN },
      'new:nothing_to_resume',
    ],
    ['killed during loop 3', { fresh: false, leftBehind: crashed, status: running, receipts, kind: PLAN_RUN }, 'resume:3'],
    [
      'status.json of another process: the receipts say where it was',
      { fresh: false, leftBehind: crashed, status: { ...running, pid: 1, exit_code: 0 }, receipts, kind: PLAN_RUN },
      'resume:2',
    ],
    ['no status.json at all', { fresh: false, leftBehind: crashed, status: undefined, receipts, kind: PLAN_RUN }, 'resume:2'],
    [
      'killed before its first receipt was written, during loop 1',
      { fresh: false, leftBehind: { pid: 4242, runId: 'run-c', kind: PLAN_RUN }, status: { ...running, loop_count: 1 }, receipts, kind: PLAN_RUN },
      'resume:1',
    ],
    // Only the same kind of run is resumed: a task by the same task, the fix plan by a plain ralph.
    ['a crashed plain ralph, started again as ralph run', { fresh: false, leftBehind: crashed, status: running, receipts, kind: TASK_A }, 'new:other_run'],
    [
      'a crashed ralph run, started again as a plain ralph',
      { fresh: false, leftBehind: { ...crashed, kind: TASK_A }, status: running, receipts, kind: PLAN_RUN },
      'new:other_run',
    ],
    [
      'a crashed ralph run of another task',
      { fresh: false, leftBehind: { ...crashed, kind: TASK_A }, status: running, receipts, kind: TASK_B },
      'new:other_run',
    ],
    ['a crashed ralph run of the same task', { fresh: false, leftBehind: { ...crashed, kind: TASK_A }, status: running, receipts, kind: TASK_A }, 'resume:3'],
    [
      'a run file that does not say what it ran',
      { fresh: false, leftBehind: { ...crashed, kind: null }, status: running, receipts, kind: PLAN_RUN },
      'new:other_run',
    ],
    ['--fresh wins over another kind', { fresh: true, leftBehind: { ...crashed, kind: TASK_A }, status: running, receipts, kind: PLAN_RUN }, 'new:fresh'],
  ])('%s', (_name, input, expected) => {
    const d = decideResume(input);
    expect(d.kind === 'new' ? `new:${d.why}` : `resume:${d.crashedAt}`).toBe(expected);
  });

  it('restores the totals of the crashed run only: the sum of its receipts', () => {
    const d = decideResume({ fresh: false, leftBehind: crashed, status: running, receipts, kind: PLAN_RUN });
    expect(d.kind).toBe('resume');
    if (d.kind !== 'resume') return;
    expect(d.runId).toBe('run-b');
    expect(d.receipts).toBe(2);
    expect(d.totals.cost_usd).toBeCloseTo(3.12);
    expect(d.totals.input_tokens).toBe(200);
    expect(d.totals.calls).toBe(2);
    expect(d.sessionId).toBe('sess-1');
  });

  it('names the crashed run and what it was when it is not resumed', () => {
    const say = (was: string | null, now: string): unknown => {
      const d = decideResume({ fresh: false, leftBehind: { ...crashed, kind: was }, status: running, receipts, kind: now });
      return d.kind === 'new' && d.why === 'other_run' ? [d.runId, d.reason] : d;
    };
    expect(say(TASK_A, PLAN_RUN)).toEqual(['run-b', "it was `ralph run '<task>'`, this is a plain `ralph` (the fix plan)"]);
    expect(say(PLAN_RUN, TASK_A)).toEqual(['run-b', "it was a plain `ralph` (the fix plan), this is `ralph run '<task>'`"]);
    expect(say(TASK_A, TASK_B)).toEqual(['run-b', 'it was a `ralph run` of another task']);
    expect(say(null, PLAN_RUN)).toEqual(['run-b', 'it was a run of an earlier Ralph that did not record what it ran, this is a plain `ralph` (the fix plan)']);
  });

  it("carries the crashed run's reviewer pass, and the line counts its reviews", () => {
    const review = {
      backend: 'claude',
      reviews: 2,
      rejected_in_a_row: 1,
      max_rejected: 3,
      last_verdict: 'CHANGES_REQUESTED' as const,
      findings: ['add a test'],
      cost_usd: 0.1,
      input_tokens: 50,
      output_tokens: 5,
    };
    const d = decideResume({ fresh: false, leftBehind: crashed, status: { ...running, review }, receipts, kind: PLAN_RUN });
    if (d.kind !== 'resume') throw new Error('expected a resume');
    expect(d.review).toEqual(review);
    expect(describeResume(d, { callsThisHour: 4, circuit: 'CLOSED' })).toContain('circuit CLOSED, 2 reviews (1 rejected in a row), agent session sess-1.');
    const other = decideResume({ fresh: false, leftBehind: crashed, status: { ...running, pid: 1, review }, receipts, kind: PLAN_RUN });
    expect(other.kind === 'resume' && other.review).toBeNull();
  });

  it('says so in one line', () => {
    const d = decideResume({ fresh: false, leftBehind: crashed, status: { ...running, loop_count: 7 }, receipts, kind: PLAN_RUN });
    if (d.kind !== 'resume') throw new Error('expected a resume');
    expect(describeResume(d, { callsThisHour: 4, circuit: 'CLOSED' })).toBe(
      'Resuming run run-b after a crash at loop 7: $3.12 spent, 200 tokens over 2 receipts, 4 calls this hour, circuit CLOSED, agent session sess-1. The next loop is 8; ralph --fresh starts a new run instead.',
    );
  });
});
