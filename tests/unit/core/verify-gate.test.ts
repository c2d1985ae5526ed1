import { describe, expect, it } from 'vitest';
import {
  MAX_GATE_RESULTS,
  SUMMARY_TAIL_CHARS,
  applyGateAction,
  createGate,
  gateActive,
  gateBlocks,
  lastResult,
  parseGateAction,
  reconcileGate,
  recordVerifyResult,
  type GateState,
} from '../../../src/core/verify-gate.js';
import type { VerifyOutcome } from '../../../src/core/verify-feedback.js';

const fail = (n = 1): VerifyOutcome => ({
  command: 'npm test',
  passed: false,
  exitCode: 1,
  signal: null,
  timedOut: false,
  durationMs: 100 + n,
  stdout: '',
  stderr: `failure ${n}`,
});
const pass: VerifyOutcome = { ...fail(), passed: true, exitCode: 0, stderr: '', stdout: 'ok' };

function failTimes(state: GateState, times: number): { state: GateState; decisions: string[] } {
  const decisions: string[] = [];
  let s = state;
  for (let i = 1; i <= times; i += 1) {
    const r = recordVerifyResult(s, fail(i), 1000 + i);
    s = r.state;
    decisions.push(r.decision);
  }
  return { state: s, decisions };
}

describe('createGate', () => {
  it('starts pending with no attempts', () => {
    expect(createGate('npm test', 5, 'g1')).toEqual({ gateId: 'g1', command: 'npm test', attempt: 0, maxAttempts: 5, results: [], status: 'pending' });
  });
  it('never allows fewer than one attempt', () => {
    expect(createGate('x', 0, 'g').maxAttempts).toBe(1);
  });
});

describe('recordVerifyResult', () => {
  it('scenario 1: a first-try pass passes without a retry loop', () => {
    const { state, decision } = recordVerifyResult(createGate('npm test', 5, 'g'), pass);
    expect(decision).toBe('passed');
    expect(state).toMatchObject({ status: 'passed', attempt: 0 });
    expect(state.results).toHaveLength(1);
  });

  it('scenario 2: fail then pass — bounce, then passed with the attempt count cleared', () => {
    const first = recordVerifyResult(createGate('npm test', 5, 'g'), fail());
    expect(first.decision).toBe('bounce');
    expect(first.state).toMatchObject({ attempt: 1, status: 'pending' });
    const second = recordVerifyResult(first.state, pass);
    expect(second.decision).toBe('passed');
    expect(second.state).toMatchObject({ attempt: 0, status: 'passed' });
  });

  it('scenario 3: attempts 1–4 bounce, attempt 5 escalates; no infinite loop', () => {
    const { state, decisions } = failTimes(createGate('exit 1', 5, 'g'), 5);
    expect(decisions).toEqual(['bounce', 'bounce', 'bounce', 'bounce', 'escalate']);
    expect(state).toMatchObject({ attempt: 5, status: 'escalated' });
  });

  it(':fast (1 attempt) escalates on the first failure', () => {
    expect(recordVerifyResult(createGate('x', 1, 'g'), fail()).decision).toBe('escalate');
  });

  it('a failure after a pass starts a new cycle at attempt 1', () => {
    const { state } = failTimes(recordVerifyResult(failTimes(createGate('x', 3, 'g'), 2).state, pass).state, 1);
    expect(state).toMatchObject({ attempt: 1, status: 'pending' });
  });

  it('keeps only the last 5 results, oldest first', () => {
    const { state } = failTimes(createGate('x', 100, 'g'), 8);
    expect(state.results).toHaveLength(MAX_GATE_RESULTS);
    expect(state.results.map((r) => r.stderr)).toEqual(['failure 4', 'failure 5', 'failure 6', 'failure 7', 'failure 8']);
    expect(lastResult(state)?.at).toBe(1008);
  });

  it('bounds the stored output tails', () => {
    const { state } = recordVerifyResult(createGate('x', 5, 'g'), { ...fail(), stdout: 'y'.repeat(50_000) });
    expect(state.results[0]!.stdout.length).toBeLessThan(SUMMARY_TAIL_CHARS + 60);
    expect(state.results[0]!.stdout.startsWith('[...truncated, showing last 2000 chars...]\n')).toBe(true);
  });

  it('is ignored by a skipped or aborted gate', () => {
    for (const action of ['skip', 'abort'] as const) {
      const gate = applyGateAction(createGate('x', 5, 'g'), action);
      const r = recordVerifyResult(gate, fail());
      expect(r.decision).toBe('ignored');
      expect(r.state).toBe(gate);
    }
  });

  it('does not mutate its input', () => {
    const gate = createGate('x', 5, 'g');
    const frozen = JSON.stringify(gate);
    recordVerifyResult(gate, fail());
    expect(JSON.stringify(gate)).toBe(frozen);
  });
});

describe('applyGateAction', () => {
  const escalated = failTimes(createGate('npm test', 5, 'g'), 5).state;

  it('scenario 4: retry resets the attempt count to 0 and clears the results', () => {
    expect(escalated.attempt).toBe(5);
    expect(escalated.results).toHaveLength(5);
    const retried = applyGateAction(escalated, 'retry');
    expect(retried).toMatchObject({ attempt: 0, results: [], status: 'pending', command: 'npm test', gateId: 'g' });
    expect(recordVerifyResult(retried, fail()).decision).toBe('bounce');
  });

  it('scenario 5: skip — the gate no longer blocks and is no longer run', () => {
    const skipped = applyGateAction(escalated, 'skip');
    expect(skipped.status).toBe('skipped');
    expect(gateBlocks(skipped)).toBe(false);
    expect(gateActive(skipped)).toBe(false);
  });

  it('scenario 6: abort — the gate is aborted and stops the run', () => {
    const aborted = applyGateAction(escalated, 'abort');
    expect(aborted.status).toBe('aborted');
    expect(gateBlocks(aborted)).toBe(true);
    expect(gateActive(aborted)).toBe(false);
  });

  it.each([
    ['pending', true],
    ['escalated', true],
    ['passed', false],
  ] as const)('gateBlocks(%s) = %s', (status, blocks) => {
    expect(gateBlocks({ ...createGate('x', 5, 'g'), status })).toBe(blocks);
  });
});

describe('parseGateAction', () => {
  it.each([
    ['retry', 'retry'],
    [' SKIP ', 'skip'],
    ['abort', 'abort'],
    ['continue', undefined],
    [3, undefined],
  ])('%j → %j', (input, expected) => {
    expect(parseGateAction(input)).toBe(expected);
  });
});

describe('reconcileGate', () => {
  it('starts a new gate when there is none or the command changed', () => {
    expect(reconcileGate(undefined, 'a', 5, 'n')).toEqual(createGate('a', 5, 'n'));
    const old = failTimes(createGate('a', 5, 'o'), 2).state;
    expect(reconcileGate(old, 'b', 5, 'n')).toEqual(createGate('b', 5, 'n'));
  });
  it('keeps the gate when nothing changed', () => {
    const old = failTimes(createGate('a', 5, 'o'), 2).state;
    expect(reconcileGate(old, 'a', 5, 'n')).toBe(old);
  });
  it('re-checks escalation when the limit changes', () => {
    const escalated = failTimes(createGate('a', 3, 'o'), 3).state;
    expect(reconcileGate(escalated, 'a', 10, 'n')).toMatchObject({ status: 'pending', attempt: 3, maxAttempts: 10 });
    const pending = failTimes(createGate('a', 10, 'o'), 3).state;
    expect(reconcileGate(pending, 'a', 2, 'n')).toMatchObject({ status: 'escalated', maxAttempts: 2 });
  });
});
