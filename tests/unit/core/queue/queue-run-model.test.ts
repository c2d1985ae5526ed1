import { describe, expect, it } from 'vitest';
import { decideItemOutcome, type LoopEnd } from '../../../../src/core/queue/item-outcome.js';
import { budgetForNewLoop, budgetReached, spentUsd } from '../../../../src/core/queue/queue-budget.js';
import type { QueueDocument, QueueItem } from '../../../../src/core/queue/queue-item.js';
import { annotateResult, releaseItem } from '../../../../src/core/queue/queue-release.js';
import { buildRunReport } from '../../../../src/core/run-report.js';

const item = (id: string, extra: Partial<QueueItem> = {}): QueueItem => ({
  id,
  source: 'task',
  title: id,
  spec: id,
  priority: 5,
  depends_on: [],
  state: 'pending',
  created_at: '2026-01-01T00:00:00Z',
  ...extra,
});

describe('decideItemOutcome: how a loop ended → the item’s state and result', () => {
  it.each<[string, LoopEnd, 'completed' | 'failed', string | undefined]>([
    ['exit 0 completes', { exitCode: 0, exitReason: 'project_complete', loops: 2, costUsd: 0.5 }, 'completed', undefined],
    ['a limit fails, with the reason', { exitCode: 7, exitReason: 'max_loops', loops: 5 }, 'failed', 'the loop ended with exit code 7 (max_loops)'],
    ['a verify abort fails', { exitCode: 6, exitReason: 'verify_aborted' }, 'failed', 'the loop ended with exit code 6 (verify_aborted)'],
    ['killed by a signal', { exitCode: undefined, signal: 'SIGKILL' }, 'failed', 'the loop was killed by SIGKILL'],
    ['never started', { exitCode: undefined, failure: 'spawn node ENOENT' }, 'failed', 'spawn node ENOENT'],
  ])('%s', (_name, end, state, error) => {
    const outcome = decideItemOutcome(end, 'ralph/t1');
    expect(outcome.state).toBe(state);
    expect(outcome.result.branch).toBe('ralph/t1');
    expect(outcome.result.error).toBe(error);
    if (end.exitCode !== undefined) expect(outcome.result.exit_code).toBe(end.exitCode);
  });

  it('keeps cost, estimate and iterations', () => {
    expect(decideItemOutcome({ exitCode: 0, exitReason: 'x', loops: 3, costUsd: 1.25, costEstimated: true }, 'b').result).toEqual({
      branch: 'b',
      exit_reason: 'x',
      exit_code: 0,
      cost: 1.25,
      cost_estimated: true,
      iterations: 3,
    });
  });
});

describe('the shared budget', () => {
  it.each([
    [{ maxCostUsd: 0, finishedUsd: 50, runningUsd: [10] }, false, undefined],
    [{ maxCostUsd: 5, finishedUsd: 1, runningUsd: [1, 1] }, false, 2],
    [{ maxCostUsd: 5, finishedUsd: 2, runningUsd: [1.5, 1.5] }, true, 0],
    [{ maxCostUsd: 5, finishedUsd: 4, runningUsd: [2] }, true, 0],
  ])('%j: reached %s, a new loop may spend %s', (view, reached, left) => {
    expect(budgetReached(view)).toBe(reached);
    expect(budgetForNewLoop(view)).toBe(left);
  });

  it('adds finished and running costs', () => {
    expect(spentUsd({ maxCostUsd: 1, finishedUsd: 0.25, runningUsd: [0.5, 0.125] })).toBe(0.875);
  });
});

describe('releaseItem and annotateResult', () => {
  const doc: QueueDocument = {
    version: 1,
    items: [item('t1', { state: 'running', owner: { pid: 1, host: 'h' }, started_at: 'x', branch: 'ralph/t1', worktree: '.ralph/worktrees/t1' }), item('t2')],
  };

  it('puts a running item back to pending with why, keeping its branch and worktree', () => {
    const change = releaseItem(doc, 't1', 'interrupted by Ctrl+C');
    expect(change.ok && change.value).toEqual({ ...item('t1'), branch: 'ralph/t1', worktree: '.ralph/worktrees/t1', reason: 'interrupted by Ctrl+C' });
    expect(change.ok && change.doc.items[1]).toEqual(item('t2'));
  });

  it('adds to a result and refuses an unknown id', () => {
    const done: QueueDocument = { version: 1, items: [item('t1', { state: 'completed', result: { exit_code: 0 } })] };
    const change = annotateResult(done, 't1', { pr_url: 'https://example.invalid/pull/1' });
    expect(change.ok && change.value.result).toEqual({ exit_code: 0, pr_url: 'https://example.invalid/pull/1' });
    expect(releaseItem(doc, 'nope', 'x')).toEqual({ ok: false, refusal: { kind: 'unknown_id', id: 'nope' } });
    expect(annotateResult(doc, 'nope', {})).toEqual({ ok: false, refusal: { kind: 'unknown_id', id: 'nope' } });
  });
});

describe('buildRunReport', () => {
  const times = { startedIso: '2026-01-01T00:00:00Z', endedIso: '2026-01-01T00:05:00Z' };

  it('takes exit reason, cost and iterations from status.json', () => {
    expect(
      buildRunReport({
        exitCode: 0,
        fallbackReason: 'error',
        branch: 'ralph/t1',
        prUrl: 'https://example.invalid/pull/2',
        status: { exit_reason: 'project_complete', loop_count: 4, backend: 'codex', totals: { cost_usd: 0.75, cost_estimated: true } },
        ...times,
      }),
    ).toEqual({
      version: 1,
      exit_reason: 'project_complete',
      exit_code: 0,
      cost_usd: 0.75,
      cost_estimated: true,
      iterations: 4,
      backend: 'codex',
      branch: 'ralph/t1',
      pr_url: 'https://example.invalid/pull/2',
      started_at: times.startedIso,
      ended_at: times.endedIso,
      run_id: null,
      receipts: 0,
      tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
      quota_windows: [],
      review: null,
    });
  });

  it('carries the reviewer pass of a run with --review', () => {
    const review = { backend: 'claude', reviews: 3, last_verdict: 'CHANGES_REQUESTED', findings: ['add a test'], cost_usd: 0.2 };
    const status = { exit_reason: 'review_rejected', loop_count: 4, backend: 'claude', totals: { cost_usd: 1, cost_estimated: false }, review };
    expect(buildRunReport({ exitCode: 6, fallbackReason: 'error', branch: undefined, status, ...times }).review).toEqual({
      reviews: 3,
      last_verdict: 'CHANGES_REQUESTED',
      findings: ['add a test'],
      cost_usd: 0.2,
    });
  });

  it('without a status.json of the run, says why it ended from the error', () => {
    expect(buildRunReport({ exitCode: 2, fallbackReason: 'usage_error', branch: undefined, ...times })).toMatchObject({
      exit_reason: 'usage_error',
      exit_code: 2,
      cost_usd: 0,
      iterations: 0,
      branch: null,
      pr_url: null,
    });
  });
});
