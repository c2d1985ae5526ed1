import type { RalphConfig } from '../../config/keys.js';
import type { ConfigField } from '../../config/keys.js';
import type { ValueOrigin } from '../../config/load-config.js';
import type { VerifyGate } from '../../engine/verify-gate.js';
import { RalphError } from '../../errors.js';

export async function createGate(config: RalphConfig, _origins: Record<ConfigField, ValueOrigin>, _ctx: unknown): Promise<VerifyGate | undefined> {
  if (!config.verifyCommand) return undefined;
  throw new RalphError('verify gate wiring pending');
}
