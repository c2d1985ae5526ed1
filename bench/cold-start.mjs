// Cold start of the read-only commands (budget: ≤ 150 ms median), beside node's own start.
import { cleanup, median, p90, printTable, project, row, timeCommand, timeNode } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const dir = project({ git: false });
try {
  // Give --status and --circuit-status something to read.
  timeCommand(['--backend', 'mock', '--dry-run', '--pause', '0', '--max-loops', '1'], dir, 1);
  const rows = [];
  for (const args of [['--help'], ['--status'], ['--status', '--json'], ['--circuit-status'], ['--version']]) {
    timeCommand(args, dir, 2); // warm the file cache
    const times = timeCommand(args, dir, RUNS);
    const m = median(times);
    rows.push(row(`ralph ${args.join(' ')}`, `${m.toFixed(1)} ms (p90 ${p90(times).toFixed(1)})`, '≤ 150 ms', m <= 150));
  }
  timeNode(['-e', '0'], dir, 2);
  const baseline = timeNode(['-e', '0'], dir, RUNS);
  rows.push(row('node -e 0 (baseline)', `${median(baseline).toFixed(1)} ms`, '-', true));
  printTable(`Cold start (${RUNS} runs each, median)`, rows);
} finally {
  cleanup(dir);
}
