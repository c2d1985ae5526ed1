// Cold start of the read-only commands (spec §13: ≤ 150 ms median).
import { spawnSync } from 'node:child_process';
import { cleanup, median, p90, printTable, project, row, timeCommand } from './lib.mjs';

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
  const baseline = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0']);
    baseline.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  rows.push(row('node -e 0 (baseline)', `${median(baseline).toFixed(1)} ms`, '-', true));
  printTable(`Cold start (${RUNS} runs each, median)`, rows);
} finally {
  cleanup(dir);
}
