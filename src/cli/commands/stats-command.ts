import { resolve } from 'node:path';
import { readMetricsFile, readReceiptLog } from '../../features/observe/loop-files.js';
import { formatReceiptStats, summarizeReceipts } from '../../features/observe/receipt-stats.js';
import { computeStats, formatStatsText } from '../../features/observe/stats.js';
import { ralphPaths } from '../../state/paths.js';
import { ExitCode, RalphError } from '../../errors.js';
import { runMain } from '../main.js';
import { printRedacted } from '../redacted-output.js';
import type { StatsArgs } from '../ralph-stats.js';

const NO_METRICS = 'No metrics file found. Run ralph first to generate metrics.';

/** Prints the summary of the project's metrics file (ralph-stats); the exit code. */
export function showStats(flags: StatsArgs): number {
  const paths = ralphPaths(resolve(flags.project ?? '.'));
  const path = paths.metrics;
  const parsed = readMetricsFile(path);
  if (parsed === undefined) throw new RalphError(NO_METRICS, ExitCode.RuntimeError, `(looked for ${path})`);
  const stats = computeStats(parsed.entries, parsed.skippedLines.length);
  // The receipts add what metrics.jsonl does not hold (cost by source, decisions, resumed runs); none before the first.
  const read = readReceiptLog(paths.receipts);
  const receipts = read.receipts.length > 0 || read.notes.length > 0 ? summarizeReceipts(read.receipts, read.notes.length) : undefined;
  if (flags.json) {
    printRedacted(`${JSON.stringify(receipts ? { ...stats, receipts } : stats, null, 2)}\n`);
    return 0;
  }
  printRedacted(formatStatsText(stats, path));
  if (receipts) printRedacted(`\n${formatReceiptStats(receipts, paths.receipts)}`);
  for (const note of read.notes.slice(0, 10)) process.stderr.write(`${paths.receipts}: ${note}\n`);
  if (parsed.skippedLines.length > 0) {
    const shown = parsed.skippedLines.slice(0, 10).join(', ');
    const more = parsed.skippedLines.length > 10 ? ', …' : '';
    process.stderr.write(`Skipped ${parsed.skippedLines.length} line(s) that are not metrics records (line ${shown}${more}).\n`);
  }
  return 0;
}

/** `ralph-stats` [--json] as a whole process (the fast path's answer). */
export function answerStats(flags: StatsArgs): Promise<void> {
  return runMain(async () => showStats(flags), { json: true });
}
