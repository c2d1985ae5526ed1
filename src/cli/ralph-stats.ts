import { resolve } from 'node:path';
import { computeStats, formatStatsText, readMetricsFile } from '../features/stats.js';
import { ralphPaths } from '../state/paths.js';
import { ExitCode, RalphError } from '../errors.js';
import { runMain } from './main.js';
import { printRedacted } from './redacted-output.js';
import { quickStatsArgs } from './ralph-stats-quick-args.js';
import type { StatsArgs } from './ralph-stats-args.js';

const NO_METRICS = 'No metrics file found. Run ralph first to generate metrics.';

/** `ralph-stats` and `ralph-stats --json` are read without the parser; anything else loads it. */
async function statsArgs(argv: readonly string[]): Promise<StatsArgs | undefined> {
  const quick = quickStatsArgs(argv);
  if (quick) return quick;
  const { parseStatsArgs } = await import('./ralph-stats-args.js');
  return parseStatsArgs(argv);
}

async function runStats(argv: string[]): Promise<number> {
  const flags = await statsArgs(argv);
  if (!flags) return 0;
  const path = ralphPaths(resolve(flags.project ?? '.')).metrics;
  const parsed = readMetricsFile(path);
  if (parsed === undefined) throw new RalphError(NO_METRICS, ExitCode.RuntimeError, `(looked for ${path})`);
  const stats = computeStats(parsed.entries, parsed.skippedLines.length);
  if (flags.json) {
    printRedacted(`${JSON.stringify(stats, null, 2)}\n`);
    return 0;
  }
  printRedacted(formatStatsText(stats, path));
  if (parsed.skippedLines.length > 0) {
    const shown = parsed.skippedLines.slice(0, 10).join(', ');
    const more = parsed.skippedLines.length > 10 ? ', …' : '';
    process.stderr.write(`Skipped ${parsed.skippedLines.length} line(s) that are not metrics records (line ${shown}${more}).\n`);
  }
  return 0;
}

await runMain(runStats, { json: true });
