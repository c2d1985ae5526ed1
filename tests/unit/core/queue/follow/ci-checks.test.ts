import { describe, expect, it } from 'vitest';
import {
  checksVerdict,
  collectChecks,
  nextWaitStep,
  NO_CHECKS_POLLS,
  type RawCheckRun,
  type RawStatus,
} from '../../../../../src/core/queue/follow/ci-checks.js';

const run = (name: string, status: string, conclusion: string | null = null, id = 1): RawCheckRun => ({ id, name, status, conclusion });
const status = (context: string, state: string): RawStatus => ({ context, state });

describe('collectChecks and checksVerdict', () => {
  it.each<[string, RawCheckRun[], RawStatus[], string]>([
    ['no check runs and no statuses: none (not pending)', [], [], 'none'],
    ['a queued run', [run('test', 'queued')], [], 'pending'],
    ['an in-progress run next to a failure: still pending', [run('test', 'in_progress'), run('lint', 'completed', 'failure', 2)], [], 'pending'],
    ['every run succeeded', [run('test', 'completed', 'success')], [status('ci/x', 'success')], 'passed'],
    ['neutral and skipped pass', [run('a', 'completed', 'neutral'), run('b', 'completed', 'skipped', 2)], [], 'passed'],
    ['a failure', [run('test', 'completed', 'failure')], [], 'failed'],
    ['timed out', [run('test', 'completed', 'timed_out')], [], 'failed'],
    ['cancelled', [run('test', 'completed', 'cancelled')], [], 'failed'],
    ['a status error', [], [status('ci/x', 'error')], 'failed'],
    ['a status failure', [run('test', 'completed', 'success')], [status('ci/x', 'failure')], 'failed'],
    ['a pending status', [run('test', 'completed', 'success')], [status('ci/x', 'pending')], 'pending'],
    ['a re-run that passed counts, not the failed first run', [run('test', 'completed', 'failure', 1), run('test', 'completed', 'success', 7)], [], 'passed'],
  ])('%s', (_, runs, statuses, verdict) => {
    expect(checksVerdict(collectChecks(runs, statuses))).toBe(verdict);
  });

  it("keeps a failed run's output and a status's description", () => {
    const checks = collectChecks(
      [{ id: 3, name: 'test', status: 'completed', conclusion: 'failure', output: { title: 'T', summary: 'S', text: 'X', annotations_count: 2 } }],
      [{ context: 'ci/x', state: 'error', description: 'build broke' }],
    );
    expect(checks).toEqual([
      { name: 'test', kind: 'check run', state: 'failure', detail: 'failure', id: 3, title: 'T', summary: 'S', text: 'X', annotationsCount: 2 },
      { name: 'ci/x', kind: 'status', state: 'failure', detail: 'error', summary: 'build broke' },
    ]);
  });
});

describe('nextWaitStep', () => {
  it.each<[string, Parameters<typeof nextWaitStep>[0], string]>([
    ['passed', { verdict: 'passed', polls: 1, elapsedMs: 0, timeoutMs: 1000 }, 'passed'],
    ['failed even at the timeout', { verdict: 'failed', polls: 9, elapsedMs: 5000, timeoutMs: 1000 }, 'failed'],
    ['pending: wait', { verdict: 'pending', polls: 4, elapsedMs: 999, timeoutMs: 1000 }, 'wait'],
    ['pending past the timeout', { verdict: 'pending', polls: 4, elapsedMs: 1000, timeoutMs: 1000 }, 'timed-out'],
    ['no checks yet: CI may not have picked the commit up', { verdict: 'none', polls: NO_CHECKS_POLLS - 1, elapsedMs: 0, timeoutMs: 1000 }, 'wait'],
    ['no checks after a few looks', { verdict: 'none', polls: NO_CHECKS_POLLS, elapsedMs: 0, timeoutMs: 1000 }, 'no-checks'],
  ])('%s', (_, input, step) => {
    expect(nextWaitStep(input)).toBe(step);
  });
});
