// The whole `ralph --live` process on a 50 MB stream-json agent output: wall time, CPU time and
// peak RSS, beside the floor measured in the same run (interleaved: ours, floor, ours, floor …)
// and against the original's 3.5 s and 6 MB (measured side by side on the same machine).
//
// The floor is a bare node process that does the least any live view must: it starts the same
// fake agent, reads its stdout through a pipe and writes every chunk to stderr (a file here, as
// a terminal would take it). Ralph does that plus parsing, rendering, live.log and the loop.
//
// The same run with an agent that prints only its result line splits Ralph's time in two: what
// any iteration costs (start, checks, state files), and what the 50 MB stream itself adds, which
// is set beside the floor's own time less node's start.
import { chmodSync, createWriteStream, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canMeasureRss, cleanup, measureProcess, median, printTable, project, RALPH, row, tempDir, write } from './lib.mjs';
import { streamJson } from './stream-json.mjs';
import { saveFigures } from './summary.mjs';

const TARGET = 50 * 1024 * 1024;
const RUNS = 3;
const ORIGINAL_MS = 3500;
const STATUS = '\n---RALPH_STATUS---\nSTATUS: IN_PROGRESS\nEXIT_SIGNAL: false\n---END_RALPH_STATUS---';
const FLOOR = `const { spawn } = require('node:child_process');
const child = spawn('claude', ['-p', 'x'], { stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.on('data', (chunk) => process.stderr.write(chunk));
child.on('close', (code) => process.exit(code ?? 1));`;

const tools = tempDir('ralph-bench-live-');
const dirs = [];
const PATH = `${join(tools, 'bin')}:${process.env.PATH}`;
const SHORT_PATH = `${join(tools, 'short', 'bin')}:${process.env.PATH}`;
/** One measured run, which must exit with `expectedStatus`. */
function measure(args, cwd, expectedStatus, path = PATH) {
  const r = measureProcess(args, cwd, { PATH: path });
  if (r.status !== expectedStatus) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-500)}`);
  // --live prints the whole rendered stream on stderr: keep the figures only.
  const { stderr: _shown, status: _status, ...figures } = r;
  return figures;
}

try {
  const stream = join(tools, 'stream.jsonl');
  const out = createWriteStream(stream);
  for (const line of streamJson(TARGET, `All done.${STATUS}`)) if (!out.write(line)) await new Promise((r) => out.once('drain', r));
  await new Promise((r) => out.end(r));
  const short = join(tools, 'short.jsonl');
  writeFileSync(short, [...streamJson(0, `All done.${STATUS}`)].at(-1));
  // A fake claude that prints the whole stream as fast as the pipe takes it, and one that prints only the result.
  const fakeClaude = (file) => `#!/bin/sh\nfor a in "$@"; do [ "$a" = --version ] && { echo '2.1.197 (Claude Code)'; exit 0; }; done\nexec cat '${file}'\n`;
  write(tools, { 'bin/claude': fakeClaude(stream), 'short/bin/claude': fakeClaude(short) });
  chmodSync(join(tools, 'bin', 'claude'), 0o755);
  chmodSync(join(tools, 'short', 'bin', 'claude'), 0o755);
  const ours = [];
  const floor = [];
  const fixed = [];
  const nodeStart = [];
  const live = [process.execPath, RALPH, '--live', '--max-loops', '1', '--pause', '0'];
  for (let i = 0; i < RUNS; i += 1) {
    const dir = project({ git: false });
    dirs.push(dir);
    ours.push(measure(live, dir, 7));
    if (statSync(join(dir, '.ralph', 'live.log')).size === 0) throw new Error('live.log stayed empty');
    floor.push(measure([process.execPath, '-e', FLOOR], dir, 0));
    const fresh = project({ git: false });
    dirs.push(fresh);
    fixed.push(measure(live, fresh, 7, SHORT_PATH));
    nodeStart.push(measure([process.execPath, '-e', '0'], dir, 0));
  }
  const figure = (runs, key) => (canMeasureRss || key === 'wallMs' ? median(runs.map((r) => r[key])) : undefined);
  const ms = figure(ours, 'wallMs');
  const floorMs = figure(floor, 'wallMs');
  const fixedMs = figure(fixed, 'wallMs');
  const streamMs = ms - fixedMs;
  const floorStreamMs = floorMs - figure(nodeStart, 'wallMs');
  const rows = [
    row('wall time', `${ms.toFixed(0)} ms (original ${ORIGINAL_MS})`, '≤ 700 ms', ms <= 700),
    row('floor: node pipes it to stderr', `${floorMs.toFixed(0)} ms`, '', true),
    row('ratio ours ÷ floor', `${(ms / floorMs).toFixed(1)}×`, '', true),
    row('faster than the original', `${(ORIGINAL_MS / ms).toFixed(1)}×`, '≥ 5×', ORIGINAL_MS / ms >= 5),
    row('of which any iteration (result line only)', `${fixedMs.toFixed(0)} ms`, '', true),
    row('of which the stream', `${streamMs.toFixed(0)} ms (floor's ${floorStreamMs.toFixed(0)}, ${(streamMs / floorStreamMs).toFixed(1)}×)`, '', true),
  ];
  const results = {
    at: new Date().toISOString(),
    bytes: statSync(stream).size,
    runs: RUNS,
    originalMs: ORIGINAL_MS,
    ours,
    floor,
    fixed,
    nodeStart,
    medianMs: ms,
    floorMedianMs: floorMs,
    fixedMedianMs: fixedMs,
    streamMs,
    floorStreamMs,
  };
  if (canMeasureRss) {
    const cpu = figure(ours, 'cpuMs');
    const floorCpu = figure(floor, 'cpuMs');
    const rss = Math.max(...ours.map((r) => r.rssMb));
    const floorRss = Math.max(...floor.map((r) => r.rssMb));
    rows.push(
      row('CPU time (user + sys)', `${cpu.toFixed(0)} ms (floor ${floorCpu.toFixed(0)}, ${(cpu / floorCpu).toFixed(1)}×)`, '', true),
      row('peak RSS', `${rss.toFixed(0)} MB (floor ${floorRss.toFixed(0)}; original 6)`, '≤ 100 MB', rss <= 100),
    );
    Object.assign(results, { cpuMedianMs: cpu, floorCpuMedianMs: floorCpu, peakRssMb: rss, floorPeakRssMb: floorRss });
  }
  saveFigures('live-stream', [
    { measure: 'ralph --live, 50 MB stream-json: wall', ours: ms, floor: floorMs, unit: 'ms', target: `≤ 700 ms (original ${ORIGINAL_MS} ÷ 5)`, ok: ms <= 700 },
    ...(canMeasureRss
      ? [
          {
            measure: 'ralph --live, 50 MB stream-json: peak RSS',
            ours: results.peakRssMb,
            floor: results.floorPeakRssMb,
            unit: 'MB',
            target: '≤ 100 MB',
            ok: results.peakRssMb <= 100,
          },
        ]
      : []),
  ]);
  printTable(`ralph --live on a 50 MB stream-json output (median of ${RUNS}, interleaved with the floor)`, rows);
  const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, 'live-stream.json'), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  for (const dir of dirs) cleanup(dir);
  cleanup(tools);
}
