import { describe, expect, it } from 'vitest';
import { claimProcessSandbox } from '../../../src/cli/commands/sandbox-claim.js';
import { RalphError } from '../../../src/errors.js';

describe('the process sandbox, one loop at a time', () => {
  it('refuses a second claim while the first holds it, and takes one again once it is given back', () => {
    const release = claimProcessSandbox('/a');
    let refusal: unknown;
    try {
      claimProcessSandbox('/b');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(RalphError);
    expect((refusal as RalphError).message).toContain('Another loop of this process runs sandboxed already');
    expect((refusal as RalphError).hint).toContain('a process of its own');
    release();
    // Giving back twice does not free a later claim.
    const again = claimProcessSandbox('/b');
    release();
    expect(() => claimProcessSandbox('/c')).toThrow(RalphError);
    again();
  });
});
