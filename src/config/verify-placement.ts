import type { ConfigField, RalphConfig } from './keys.js';
import type { ValueOrigin } from './config-origins.js';

/**
 * Where the verify command of a run goes. The agent writes the tests the verify command runs, so
 * under --sandbox an uncontained verify command would run the agent's code outside the sandbox:
 * it runs inside unless the user opts out (--verify-outside-sandbox, or RALPH_SANDBOX_VERIFY=false
 * as older versions spelt it).
 */
export function verifyRunsContained(config: Pick<RalphConfig, 'sandbox' | 'sandboxVerify' | 'verifyOutsideSandbox'>): boolean {
  return config.sandbox && config.sandboxVerify && !config.verifyOutsideSandbox;
}

type Origins = Readonly<Record<ConfigField, ValueOrigin>>;

/** The two settings say opposite things, both set on purpose: a usage error, or undefined. */
export function verifyPlacementConflict(config: Pick<RalphConfig, 'sandboxVerify' | 'verifyOutsideSandbox'>, origins: Origins): string | undefined {
  if (!config.verifyOutsideSandbox || !config.sandboxVerify || origins.sandboxVerify.source === 'default') return undefined;
  const named = (field: 'sandboxVerify' | 'verifyOutsideSandbox', fallback: string): string => origins[field].where ?? fallback;
  return `${named('sandboxVerify', 'RALPH_SANDBOX_VERIFY')} and ${named('verifyOutsideSandbox', 'RALPH_VERIFY_OUTSIDE_SANDBOX')} contradict each other: the verify command runs either inside the sandbox or outside it`;
}

/** What the start of a run says about the verify command's place; undefined when there is nothing to say. */
export function verifyPlacementNotice(
  config: Pick<RalphConfig, 'sandbox' | 'sandboxVerify' | 'verifyOutsideSandbox'>,
  origins: Origins,
  hasVerify: boolean,
): { level: 'info' | 'warn'; text: string } | undefined {
  if (!config.sandbox) {
    const set = (['verifyOutsideSandbox', 'sandboxVerify'] as const).find((f) => origins[f].source !== 'default');
    if (set === undefined) return undefined;
    return { level: 'warn', text: `${origins[set].where ?? set} has no effect without --sandbox: the verify command runs uncontained.` };
  }
  if (!hasVerify) return undefined;
  if (verifyRunsContained(config)) return { level: 'info', text: '🛡️  The verify command runs in the sandbox too (--verify-outside-sandbox runs it outside).' };
  return {
    level: 'warn',
    text: `The verify command runs OUTSIDE the sandbox (${origins.verifyOutsideSandbox.source !== 'default' ? (origins.verifyOutsideSandbox.where ?? '--verify-outside-sandbox') : (origins.sandboxVerify.where ?? 'RALPH_SANDBOX_VERIFY=false')}): the tests the agent wrote run uncontained.`,
  };
}
