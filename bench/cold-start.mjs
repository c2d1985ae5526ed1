// Cold start of the read-only commands beside node's own start (`node -e 0`), measured
// interleaved in the same run (floor, command, floor, command …) so both see the same load.
// Target: each command within 10 ms of the floor. Results also go to bench/results/cold-start.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, cleanup, median, p90, project, timeCommand, timeNode } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TARGET_MS = 10;

const bin = (name) => join(ROOT, 'bin', `${name}.js`);
const COMMANDS = [
  ['ralph --help', [bin('ralph'), '--help']],
  ['ralph --version', [bin('ralph'), '--version']],
  ['ralph --status', [bin('ralph'), '--status']],
  ['ralph --status --json', [bin('ralph'), '--status', '--json']],
  ['ralph --circuit-status', [bin('ralph'), '--circuit-status']],
  ['ralph-monitor --once', [bin('ralph-monitor'), '--once']],
  ['ralph-stats', [bin('ralph-stats')]],
];
const FLOOR = ['-e', '0'];

const dir = project({ git: false });
try {
  // One finished run gives --status, --circuit-status, the monitor and the stats something to read.
  timeCommand(['--backend', 'mock', '--dry-run', '--pause', '0', '--max-loops', '1'], dir, 1);
  const times = COMMANDS.map(() => ({ ours: [], floor: [] }));
  for (const [, args] of COMMANDS) timeNode(args, dir, 2); // warm the file cache
  timeNode(FLOOR, dir, 2);
  for (let run = 0; run < RUNS; run += 1) {
    COMMANDS.forEach(([, args], i) => {
      times[i].floor.push(...timeNode(FLOOR, dir, 1));
      times[i].ours.push(...timeNode(args, dir, 1));
    });
  }

  const results = COMMANDS.map(([name], i) => {
    const ours = median(times[i].ours);
    const floor = median(times[i].floor);
    return { name, oursMs: ours, oursP90Ms: p90(times[i].ours), floorMs: floor, overMs: ours - floor, ratio: ours / floor, ok: ours - floor <= TARGET_MS };
  });
  const ms = (v) => `${v.toFixed(1)} ms`;
  const w = Math.max(...results.map((r) => r.name.length));
  console.log(`\nCold start (${RUNS} runs each, median; floor = node -e 0 measured between the runs, node ${process.version})`);
  console.log(
    `  ${'command'.padEnd(w)}  ${'ours'.padStart(9)}  ${'p90'.padStart(9)}  ${'floor'.padStart(9)}  ${'ours-floor'.padStart(10)}  ${'ratio'.padStart(6)}  target`,
  );
  for (const r of results) {
    const cells = [
      ms(r.oursMs).padStart(9),
      ms(r.oursP90Ms).padStart(9),
      ms(r.floorMs).padStart(9),
      ms(r.overMs).padStart(10),
      `${r.ratio.toFixed(2)}×`.padStart(6),
    ];
    console.log(`  ${r.name.padEnd(w)}  ${cells.join('  ')}  ≤ floor + ${TARGET_MS} ms ${r.ok ? 'ok' : 'OVER'}`);
  }

  const out = join(ROOT, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'cold-start.json'),
    `${JSON.stringify({ at: new Date().toISOString(), node: process.version, runs: RUNS, targetOverFloorMs: TARGET_MS, results, times }, null, 2)}\n`,
  );
} finally {
  cleanup(dir);
}
