import { describe, expect, it } from 'vitest';
import { verifyPlacementNotice, verifyRunsContained } from '../../../src/config/verify-placement.js';
import { load } from '../support/config.js';

describe('where the verify command runs', () => {
  it.each([
    ['the sandbox alone', { rc: 'RALPH_SANDBOX=true\n' }, true],
    ['--sandbox-verify, as older scripts say it', { rc: 'RALPH_SANDBOX=true\n', flags: { sandboxVerify: true } }, true],
    ['--verify-outside-sandbox', { rc: 'RALPH_SANDBOX=true\n', flags: { verifyOutsideSandbox: true } }, false],
    ['RALPH_VERIFY_OUTSIDE_SANDBOX=true', { rc: 'RALPH_SANDBOX=true\nRALPH_VERIFY_OUTSIDE_SANDBOX=true\n' }, false],
    ['RALPH_SANDBOX_VERIFY=false, as before', { rc: 'RALPH_SANDBOX=true\nRALPH_SANDBOX_VERIFY=false\n' }, false],
    ['no sandbox', { rc: '' }, false],
  ])('%s', (_, options, contained) => {
    const loaded = load(options);
    expect(loaded.errors).toEqual([]);
    expect(verifyRunsContained(loaded.config)).toBe(contained);
  });

  it('refuses --sandbox-verify with --verify-outside-sandbox, naming both', () => {
    const loaded = load({ flags: { sandbox: true, sandboxVerify: true, verifyOutsideSandbox: true } });
    expect(loaded.errors).toEqual([
      '--sandbox-verify and --verify-outside-sandbox contradict each other: the verify command runs either inside the sandbox or outside it',
    ]);
  });

  it('refuses a value that is not a yes or no', () => {
    const loaded = load({ rc: 'RALPH_VERIFY_OUTSIDE_SANDBOX=sometimes\n' });
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toContain('RALPH_VERIFY_OUTSIDE_SANDBOX="sometimes" is invalid; expected');
  });

  it('says at the start where it runs, and warns when it runs outside', () => {
    const inside = load({ flags: { sandbox: true } });
    expect(verifyPlacementNotice(inside.config, inside.origins, true)).toEqual({
      level: 'info',
      text: '🛡️  The verify command runs in the sandbox too (--verify-outside-sandbox runs it outside).',
    });
    expect(verifyPlacementNotice(inside.config, inside.origins, false)).toBeUndefined();
    const outside = load({ flags: { sandbox: true, verifyOutsideSandbox: true } });
    expect(verifyPlacementNotice(outside.config, outside.origins, true)).toEqual({
      level: 'warn',
      text: 'The verify command runs OUTSIDE the sandbox (--verify-outside-sandbox): the tests the agent wrote run uncontained.',
    });
    const noSandbox = load({ flags: { verifyOutsideSandbox: true } });
    expect(verifyPlacementNotice(noSandbox.config, noSandbox.origins, true)?.text).toBe(
      '--verify-outside-sandbox has no effect without --sandbox: the verify command runs uncontained.',
    );
    const plain = load({});
    expect(verifyPlacementNotice(plain.config, plain.origins, true)).toBeUndefined();
  });
});
