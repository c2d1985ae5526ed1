import { describe, expect, it } from 'vitest';
import { decideIterationVerdict, type IterationFactsForVerdict } from '../../../src/core/iteration-verdict.js';

const base: IterationFactsForVerdict = { call: 'success', progress: true, circuitOpened: false };
const failedGate = { passed: false, aborted: false, rolledBack: true };

describe('decideIterationVerdict', () => {
  it.each<[string, Partial<IterationFactsForVerdict>, boolean, string]>([
    ['work done', {}, true, 'success'],
    ['work done and verified', { gate: { passed: true, aborted: false, rolledBack: false } }, true, 'success, verify passed'],
    ['verify failed and rolled back', { gate: failedGate }, false, 'verify failed, rolled back'],
    ['verify failed without a checkpoint', { gate: { passed: false, aborted: false, rolledBack: false } }, false, 'verify failed'],
    ['verify failed for the last time', { gate: { passed: false, aborted: true, rolledBack: true } }, false, 'verify failed, rolled back, aborted'],
    ['nothing changed', { progress: false }, false, 'no progress'],
    ['nothing changed but the agent says it is done', { progress: false, claimedDone: true }, true, 'no changes, reported done'],
    ['the breaker opened on it', { progress: false, circuitOpened: true }, false, 'no progress, circuit breaker opened'],
    ['agent error', { call: 'failed', progress: undefined }, false, 'agent error'],
    ['agent error that opened the breaker', { call: 'failed', progress: undefined, circuitOpened: true }, false, 'agent error, circuit breaker opened'],
    ['timed out idle', { call: 'timeout', progress: undefined }, false, 'timed out without progress'],
    ['timed out after changing files', { call: 'timeout_productive' }, true, 'timed out with progress'],
    ['interrupted', { call: 'interrupted', progress: undefined }, false, 'interrupted'],
    ['usage limit', { call: 'usage_limit', progress: undefined }, false, 'usage limit reached'],
    ['transient API error', { call: 'api_error', progress: undefined }, false, 'API error, will retry'],
  ])('%s', (_name, facts, success, label) => {
    expect(decideIterationVerdict({ ...base, ...facts })).toEqual({ success, label });
  });
});
