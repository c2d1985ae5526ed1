import { describe, expect, it } from 'vitest';
import type { VerifyOutcome } from '../../../src/core/verify-feedback.js';
import { createGate, type GateState } from '../../../src/core/verify-gate.js';
import { runGateAttempt, type AttemptCheckpoint } from '../../../src/engine/gate-attempt.js';

const outcome = (passed: boolean): VerifyOutcome => ({
  command: 'npm test',
  passed,
  exitCode: passed ? 0 : 1,
  signal: null,
  timedOut: false,
  durationMs: 10,
  stdout: '',
  stderr: passed ? '' : 'FAIL',
});

function checkpoint(options: Partial<AttemptCheckpoint<string>> = {}): AttemptCheckpoint<string> & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    keepPassed: false,
    rollbackOnFail: true,
    dropAfterRollback: true,
    drop: async () => {
      log.push('drop');
    },
    rollback: async (state: GateState) => {
      log.push(`rollback after ${state.attempt} failure(s)`);
      return 'restored';
    },
    ...options,
  };
}

describe('runGateAttempt', () => {
  it('a pass records the result, resets the count and drops the checkpoint', async () => {
    const cp = checkpoint();
    const r = await runGateAttempt({ gate: createGate('npm test', 3, 'g'), run: async () => outcome(true), now: () => 5, checkpoint: cp });
    expect(r).toMatchObject({ kind: 'recorded', decision: 'passed', attempt: 1, dropped: true, state: { status: 'passed', attempt: 0 } });
    expect(cp.log).toEqual(['drop']);
  });

  it('--backup keeps a passed checkpoint', async () => {
    const cp = checkpoint({ keepPassed: true });
    const r = await runGateAttempt({ gate: createGate('npm test', 3, 'g'), run: async () => outcome(true), now: () => 5, checkpoint: cp });
    expect(r).toMatchObject({ dropped: false });
    expect(cp.log).toEqual([]);
  });

  it('a failure below the limit bounces and rolls back; the loop then drops the checkpoint, the tool keeps it', async () => {
    const loop = checkpoint();
    expect(await runGateAttempt({ gate: createGate('npm test', 3, 'g'), run: async () => outcome(false), now: () => 5, checkpoint: loop })).toMatchObject({
      decision: 'bounce',
      rolledBack: 'restored',
      dropped: true,
    });
    expect(loop.log).toEqual(['rollback after 1 failure(s)', 'drop']);
    const tool = checkpoint({ dropAfterRollback: false });
    expect(await runGateAttempt({ gate: createGate('npm test', 3, 'g'), run: async () => outcome(false), now: () => 5, checkpoint: tool })).toMatchObject({
      decision: 'bounce',
      rolledBack: 'restored',
      dropped: false,
    });
    expect(tool.log).toEqual(['rollback after 1 failure(s)']);
  });

  it('the last allowed failure escalates: reported first, then answered; skip leaves the tree alone', async () => {
    const order: string[] = [];
    const cp = checkpoint();
    const r = await runGateAttempt({
      gate: createGate('npm test', 1, 'g'),
      run: async () => outcome(false),
      now: () => 5,
      onRecorded: ({ decision }) => order.push(`recorded ${decision}`),
      escalate: async (state) => {
        order.push('asked');
        return { state: { ...state, status: 'skipped' }, action: 'skip' };
      },
      checkpoint: cp,
    });
    expect(order).toEqual(['recorded escalate', 'asked']);
    expect(r).toMatchObject({ decision: 'escalate', action: 'skip', state: { status: 'skipped' } });
    expect(cp.log).toEqual([]);
  });

  it('without an answer an escalation waits, and the failed attempt is still rolled back', async () => {
    const cp = checkpoint({ dropAfterRollback: false });
    const r = await runGateAttempt({ gate: createGate('npm test', 1, 'g'), run: async () => outcome(false), now: () => 5, checkpoint: cp });
    expect(r).toMatchObject({ decision: 'escalate', state: { status: 'escalated', attempt: 1 } });
    expect(cp.log).toEqual(['rollback after 1 failure(s)']);
  });

  it('a cancelled run is no attempt', async () => {
    const cp = checkpoint();
    expect(await runGateAttempt({ gate: createGate('npm test', 3, 'g'), run: async () => undefined, now: () => 5, checkpoint: cp })).toEqual({
      kind: 'cancelled',
    });
    expect(cp.log).toEqual([]);
  });

  it('a rollback that restores nothing keeps the checkpoint', async () => {
    const cp = checkpoint({ rollback: async () => undefined });
    expect(await runGateAttempt({ gate: createGate('npm test', 3, 'g'), run: async () => outcome(false), now: () => 5, checkpoint: cp })).toMatchObject({
      decision: 'bounce',
      dropped: false,
    });
    expect(cp.log).toEqual([]);
  });
});
