import { describe, expect, it } from 'vitest';
import { formatBounceBack, formatEscalation, type VerifyOutcome } from '../../../src/core/verify-feedback.js';

const failed: VerifyOutcome = {
  command: 'npm test',
  passed: false,
  exitCode: 1,
  signal: null,
  timedOut: false,
  durationMs: 20,
  stdout: '',
  stderr: 'FAIL x\n',
};

describe('feedback wording for other callers (the MCP verify tool)', () => {
  it('keeps the loop wording by default', () => {
    expect(formatBounceBack(failed, 1, 5).split('\n').at(-1)).toContain('Ralph runs `npm test` again after your next iteration');
    expect(formatEscalation(failed, 5, 5)).toContain('Use `gate_action` (`ralph --gate-action retry|skip|abort`):');
  });

  it('takes the next step and the gate_action prompt from the caller', () => {
    expect(formatBounceBack(failed, 2, 5, { nextStep: 'Call verify again.' }).split('\n').at(-1)).toBe('Call verify again.');
    const escalation = formatEscalation(failed, 5, 5, { gateActionPrompt: 'Call verify with gate_action:' });
    expect(escalation).toContain('Call verify with gate_action:\n- **retry**: Reset attempt count and try again');
    expect(escalation).not.toContain('ralph --gate-action');
  });
});
