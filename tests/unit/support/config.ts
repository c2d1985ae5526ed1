import { loadConfig, type ConfigInputs, type FlagValues } from '../../../src/config/load-config.js';

/** Loads configuration from a .ralphrc text, an environment and flags, as the CLI does. */
export const RC = '/project/.ralphrc';

export function load(options: { rc?: string; env?: Record<string, string | undefined>; flags?: FlagValues }): ReturnType<typeof loadConfig> {
  const inputs: ConfigInputs = { env: options.env ?? {}, flags: options.flags ?? {} };
  if (options.rc !== undefined) inputs.ralphrc = { path: RC, text: options.rc };
  return loadConfig(inputs);
}
