import { showStats } from './commands/stats-command.js';
import { runMain } from './main.js';
import { quickStatsArgs } from './ralph-stats-quick-args.js';

// `ralph-stats` and `ralph-stats --json` are answered without the parser; any
// other argv hands over to ralph-stats-with-parser.ts, a file of its own in the
// bundle, which reports its own errors (each file has its own error classes).
// No top-level await: the bundle of this file is CommonJS (scripts/bundle.mjs).
const quick = quickStatsArgs(process.argv.slice(2));
if (quick) void runMain(async () => showStats(quick), { json: true });
else void import('./ralph-stats-with-parser.js');
