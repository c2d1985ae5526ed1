import type { ConfigField } from './keys.js';

// Where a value comes from and what the flags hold, apart from load-config.ts: the parts
// load-config calls (agent-flags.ts, verify-placement.ts) name these types without importing
// load-config back.

export type ConfigSource = 'default' | 'ralphrc' | 'env' | 'flag';

export interface ValueOrigin {
  source: ConfigSource;
  /** `.ralphrc:12`, `CLAUDE_TIMEOUT_MINUTES` or `--timeout`. */
  where?: string;
}

/** Raw flag values from the command line, keyed by config field. */
export type FlagValues = Partial<Record<ConfigField, string | boolean | readonly string[]>>;
