import { describe, expect, it } from 'vitest';
import { MAX_GATE_RESULTS, createGate, recordVerifyResult, type GateState } from '../../../../src/core/verify-gate.js';
import { gateStateSchema } from '../../../../src/state/documents/verify-gate.js';
import { parseOrReason } from '../../../helpers/parse-document.js';

const normalizeGateState = (value: unknown) => parseOrReason(gateStateSchema, value);

function failTimes(state: GateState, times: number): { state: GateState } {
  let s = state;
  for (let i = 1; i <= times; i += 1) {
    s = recordVerifyResult(
      s,
      { command: 'npm test', passed: false, exitCode: 1, signal: null, timedOut: false, durationMs: 100 + i, stdout: '', stderr: `failure ${i}` },
      1000 + i,
    ).state;
  }
  return { state: s };
}

describe('.verify_gate schema', () => {
  const good = failTimes(createGate('npm test', 5, 'g'), 2).state;

  it('round-trips a state through JSON', () => {
    expect(normalizeGateState(JSON.parse(JSON.stringify(good)))).toEqual(good);
  });

  it.each([
    [null, 'not a JSON object'],
    [[], 'not a JSON object'],
    ['text', 'not a JSON object'],
    [{ ...good, gateId: '' }, 'gateId'],
    [{ ...good, command: 5 }, 'command'],
    [{ ...good, attempt: -1 }, 'attempt'],
    [{ ...good, attempt: 1.5 }, 'attempt'],
    [{ ...good, maxAttempts: 0 }, 'maxAttempts'],
    [{ ...good, status: 'done' }, 'status'],
    [{ ...good, results: {} }, 'results'],
    [{ ...good, results: [42] }, 'results[0]'],
    [{ ...good, results: [{ ...good.results[0], passed: 'no' }] }, 'passed'],
    [{ ...good, results: [{ ...good.results[0], exitCode: '1' }] }, 'exitCode'],
    [{ ...good, results: [{ ...good.results[0], durationMs: -5 }] }, 'durationMs'],
  ])('rejects junk %#', (value, mentions) => {
    const out = normalizeGateState(value);
    expect(typeof out).toBe('string');
    expect(out).toContain(mentions);
  });

  it('tolerates missing optional fields and trims an oversized history', () => {
    const minimal = { passed: false, exitCode: null, timedOut: true, durationMs: 5 };
    const out = normalizeGateState({ ...good, results: Array.from({ length: 9 }, () => minimal) });
    expect(typeof out).toBe('object');
    const state = out as GateState;
    expect(state.results).toHaveLength(MAX_GATE_RESULTS);
    expect(state.results[0]).toEqual({
      command: 'npm test',
      passed: false,
      exitCode: null,
      signal: null,
      timedOut: true,
      durationMs: 5,
      stdout: '',
      stderr: '',
    });
  });
});
