import { describe, expect, it } from 'vitest';
import { checkpointRequired, describeMissingCheckpoint } from '../../../src/core/checkpoint-policy.js';

describe('checkpointRequired', () => {
  it.each([
    // checkpoint, rollbackOnFail, gateActive, hasCommand → required
    [true, false, true, true, true], // verify gate in a git repo
    [true, true, true, true, true], // verify gate + rollback
    [true, true, false, false, true], // --checkpoint --rollback-on-fail, no verify command
    [true, false, false, false, true], // --checkpoint alone: the user asked for protection
    [true, false, false, true, false], // skipped gate, no rollback: nothing depends on it
    [false, false, false, false, false], // --backup only
    [false, false, true, true, false], // --no-checkpoint accepts the risk
  ])('checkpoint=%s rollback=%s gateActive=%s command=%s → %s', (checkpoint, rollbackOnFail, gateActive, hasCommand, required) => {
    expect(checkpointRequired({ checkpoint, rollbackOnFail, gateActive, hasCommand })).toBe(required);
  });
});

describe('describeMissingCheckpoint', () => {
  it('names the loop, the cause and both ways out', () => {
    const text = describeMissingCheckpoint(4, 'the index has unresolved merge conflicts', true);
    expect(text).toContain('Loop #4 was not started');
    expect(text).toContain('the index has unresolved merge conflicts');
    expect(text).toContain('could not be rolled back');
    expect(text).toContain("run 'ralph' again");
    expect(text).toContain('--no-checkpoint');
  });
});
