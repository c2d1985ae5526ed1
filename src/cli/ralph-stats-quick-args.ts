import { quickFlags } from './quick-flags.js';
import type { StatsArgs } from './ralph-stats-args.js';

/** `ralph-stats` and `ralph-stats --json` as the parser reads them; undefined for any other argv. */
export function quickStatsArgs(argv: readonly string[]): StatsArgs | undefined {
  const quick = quickFlags(argv, ['--json']);
  return quick && { json: quick.has('--json') };
}
