import { resolve } from 'node:path';
import { packageVersion } from '../infra/package-info.js';
import { computeStats, formatStatsText, readMetricsFile } from '../features/stats.js';
import { ralphPaths } from '../state/paths.js';
import { ExitCode, RalphError } from '../errors.js';
import { runMain } from './main.js';
import { createCommand, parseArgv, processIo } from './program.js';

const NO_METRICS = 'No metrics file found. Run ralph first to generate metrics.';

async function runStats(argv: string[]): Promise<number> {
  const program = createCommand('ralph-stats', processIo, {
    description: 'Summary of .ralph/logs/metrics.jsonl: iterations, success rate, durations, tokens, cost, verify runs, exit reasons.',
    version: packageVersion(),
    examples: [
      ['ralph-stats', 'the summary for the project in this folder'],
      ['ralph-stats --project ~/code/my-app', 'another project'],
      ['ralph-stats --json | jq .success_rate', 'one JSON document, for scripts'],
    ],
    exitCodes: [
      ['0', 'the summary was printed'],
      ['1', 'no metrics file yet (run ralph first)'],
      ['2', 'usage error'],
    ],
  })
    .option('--json', 'print one JSON document (keeps the original keys total_loops, successful, avg_duration, total_calls)')
    .option('-p, --project <dir>', 'project directory (default: the current directory)');
  if (!(await parseArgv(program, argv))) return 0;
  const flags = program.opts<{ json?: boolean; project?: string }>();
  const path = ralphPaths(resolve(flags.project ?? '.')).metrics;
  const parsed = readMetricsFile(path);
  if (parsed === undefined) throw new RalphError(NO_METRICS, ExitCode.RuntimeError, `(looked for ${path})`);
  const stats = computeStats(parsed.entries, parsed.skippedLines.length);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(formatStatsText(stats, path));
  if (parsed.skippedLines.length > 0) {
    const shown = parsed.skippedLines.slice(0, 10).join(', ');
    const more = parsed.skippedLines.length > 10 ? ', …' : '';
    process.stderr.write(`Skipped ${parsed.skippedLines.length} line(s) that are not metrics records (line ${shown}${more}).\n`);
  }
  return 0;
}

await runMain(runStats, { json: true });
