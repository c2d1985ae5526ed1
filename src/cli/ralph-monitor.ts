import { runMonitorProcess } from './monitor-process.js';
import { quickMonitorArgs } from './ralph-monitor-quick-args.js';

// The switches alone (`--once`, `--json`, `--no-color`) are read without the
// parser; any other argv hands over to ralph-monitor-with-parser.ts, a file of
// its own in the bundle, which reports its own errors (each file has its own
// error classes). No top-level await: the bundle of this file is CommonJS
// (scripts/bundle.mjs).
const quick = quickMonitorArgs(process.argv.slice(2));
if (quick) void runMonitorProcess(async () => quick);
else void import('./ralph-monitor-with-parser.js');
