// Cold start of the read-only commands beside node's own start (`node -e 0`), measured
// interleaved in the same run (floor, command, floor, command …) so both see the same load.
// Output goes to a pipe, as when a script reads it. Target: each command within 10 ms of
// the floor. Where `perf` can count (Linux), the CPU time of the same starts is shown too:
// it moves less than wall time when other work shares the machine.
// Results also go to bench/results/cold-start.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, cleanup, env, median, p90, project, timeCommand } from './lib.mjs';
import { saveFigures } from './summary.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const CPU_RUNS = Math.ceil(RUNS / 2);
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

function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, env: env(), stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r;
}

/** Wall time of one `node <args>`, in ms. */
function wallMs(args, cwd) {
  const start = process.hrtime.bigint();
  run(process.execPath, args, cwd);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** CPU time (user + system, all threads) of one `node <args>`, in ms, counted by perf. */
function cpuMs(args, cwd) {
  const r = run('perf', ['stat', '-x,', '-e', 'task-clock', process.execPath, ...args], cwd);
  return Number(r.stderr.trim().split('\n').pop().split(',')[0]);
}

function perfCounts(cwd) {
  try {
    return Number.isFinite(cpuMs(FLOOR, cwd));
  } catch {
    return false;
  }
}

/** Each command and the floor, alternately, `runs` times; the measure of each start. */
function interleaved(measure, runs, cwd) {
  const times = COMMANDS.map(() => ({ ours: [], floor: [] }));
  for (let i = 0; i < runs; i += 1) {
    COMMANDS.forEach(([, args], c) => {
      times[c].floor.push(measure(FLOOR, cwd));
      times[c].ours.push(measure(args, cwd));
    });
  }
  return times;
}

const summary = (t) => {
  const ours = median(t.ours);
  const floor = median(t.floor);
  return { oursMs: ours, oursP90Ms: p90(t.ours), floorMs: floor, overMs: ours - floor, ratio: ours / floor };
};

const dir = project({ git: false });
try {
  // One finished run gives --status, --circuit-status, the monitor and the stats something to read.
  timeCommand(['--backend', 'mock', '--dry-run', '--pause', '0', '--max-loops', '1'], dir, 1);
  for (const [, args] of [...COMMANDS, ['', FLOOR]]) for (let i = 0; i < 2; i += 1) wallMs(args, dir); // warm the file cache

  const wall = interleaved(wallMs, RUNS, dir);
  const cpu = perfCounts(dir) ? interleaved(cpuMs, CPU_RUNS, dir) : undefined;
  const results = COMMANDS.map(([name], c) => {
    const w = summary(wall[c]);
    return { name, ...w, ok: w.overMs <= TARGET_MS, ...(cpu ? { cpu: summary(cpu[c]) } : {}) };
  });

  const ms = (v, width = 9) => `${v.toFixed(1)} ms`.padStart(width);
  const w = Math.max(...results.map((r) => r.name.length));
  console.log(`\nCold start, wall time (${RUNS} runs each, median; floor = node -e 0 between the runs, node ${process.version})`);
  console.log(
    `  ${'command'.padEnd(w)}  ${'ours'.padStart(9)}  ${'p90'.padStart(9)}  ${'floor'.padStart(9)}  ${'ours-floor'.padStart(10)}  ${'ratio'.padStart(6)}  target`,
  );
  for (const r of results) {
    const cells = [ms(r.oursMs), ms(r.oursP90Ms), ms(r.floorMs), ms(r.overMs, 10), `${r.ratio.toFixed(2)}×`.padStart(6)];
    console.log(`  ${r.name.padEnd(w)}  ${cells.join('  ')}  ≤ floor + ${TARGET_MS} ms ${r.ok ? 'ok' : 'OVER'}`);
  }
  if (cpu) {
    console.log(`Cold start, CPU time (perf task-clock, ${CPU_RUNS} runs each, median)`);
    console.log(`  ${'command'.padEnd(w)}  ${'ours'.padStart(9)}  ${'floor'.padStart(9)}  ${'ours-floor'.padStart(10)}  ${'ratio'.padStart(6)}`);
    for (const r of results)
      console.log(`  ${r.name.padEnd(w)}  ${[ms(r.cpu.oursMs), ms(r.cpu.floorMs), ms(r.cpu.overMs, 10), `${r.cpu.ratio.toFixed(2)}×`.padStart(6)].join('  ')}`);
  }

  saveFigures(
    'cold-start',
    results.map((r) => ({ measure: `cold start, ${r.name}`, ours: r.oursMs, floor: r.floorMs, unit: 'ms', target: `≤ floor + ${TARGET_MS} ms`, ok: r.ok })),
  );
  const out = join(ROOT, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  const doc = { at: new Date().toISOString(), node: process.version, runs: RUNS, targetOverFloorMs: TARGET_MS, results, wall, ...(cpu ? { cpu } : {}) };
  writeFileSync(join(out, 'cold-start.json'), `${JSON.stringify(doc, null, 2)}\n`);
} finally {
  cleanup(dir);
}
