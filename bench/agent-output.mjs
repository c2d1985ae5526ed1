// The whole `ralph` process (one iteration, no --live) on a 50 MB agent output: Claude's
// `--output-format json` (one result object whose `result` string is ~50 MB) and a stream-json
// log read without --live. Wall time, CPU time and peak RSS, each beside its floor: a bare node
// process that starts the same fake claude and reads its stdout through a pipe, measured
// interleaved in the same run, both with a credential in the environment as users run it (so the
// output log is redacted). Target: peak RSS ≤ 100 MB (the original bash tool: 16.5 s, 354 MB on
// the json output).
import { chmodSync, createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { saveFigures } from './summary.mjs';
import { canMeasureRss, cleanup, measureProcess, median, printTable, project, RALPH, ROOT, row, tempDir, write } from './lib.mjs';
import { streamJson } from './stream-json.mjs';

const TARGET = 50 * 1024 * 1024;
const RUNS = 3;
const RSS_TARGET_MB = 100;
const STATUS = '\n---RALPH_STATUS---\nSTATUS: IN_PROGRESS\nEXIT_SIGNAL: false\n---END_RALPH_STATUS---';
/** The original bash tool on the same json output, measured side by side on this machine. */
const ORIGINAL = { json: '16.5 s, 354 MB' };

function* giantResult() {
  yield '{"type":"result","subtype":"success","is_error":false,"result":"';
  const line = JSON.stringify('Error: flaky test output line with some detail\n').slice(1, -1);
  for (let size = 0; size < TARGET; size += line.length * 1000) yield line.repeat(1000);
  yield `${JSON.stringify(`All done.${STATUS}`).slice(1, -1)}","session_id":"s","total_cost_usd":0.5,"usage":{"input_tokens":1,"output_tokens":1}}\n`;
}

async function writeOutput(path, chunks) {
  const out = createWriteStream(path);
  for (const chunk of chunks) if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
  await new Promise((r) => out.end(r));
}

const tools = tempDir('ralph-bench-agent-output-');
const dirs = [];
const results = {};
try {
  const json = join(tools, 'result.json');
  const stream = join(tools, 'stream.jsonl');
  await writeOutput(json, giantResult());
  await writeOutput(stream, streamJson(TARGET, `All done.${STATUS}`));
  // The fake claude prints the file named by $BENCH_OUTPUT as fast as the pipe takes it.
  write(tools, {
    'bin/claude': `#!/bin/sh\nfor a in "$@"; do [ "$a" = --version ] && { echo '2.1.197 (Claude Code)'; exit 0; }; done\nexec cat "$BENCH_OUTPUT"\n`,
    'floor.mjs':
      "import { spawn } from 'node:child_process';\nconst c = spawn('claude', ['-p', 'x'], { stdio: ['ignore', 'pipe', 'inherit'] });\nlet n = 0;\nc.stdout.on('data', (b) => { n += b.length; });\nc.on('close', () => { if (n === 0) process.exitCode = 1; });\n",
  });
  chmodSync(join(tools, 'bin', 'claude'), 0o755);
  const PATH = `${join(tools, 'bin')}:${process.env.PATH}`;
  // Users run Ralph with credentials in their environment, which turns on redaction of the output log.
  const SECRET = 'sk-ant-api03-bench-not-a-real-key-0123456789';

  const rows = [];
  for (const [mode, output] of [
    ['json', json],
    ['stream-json (no --live)', stream],
  ]) {
    const ours = [];
    const floor = [];
    for (let i = 0; i < RUNS; i += 1) {
      const dir = project({ git: false });
      dirs.push(dir);
      const r = measureProcess([process.execPath, RALPH, '--max-loops', '1', '--pause', '0'], dir, { PATH, BENCH_OUTPUT: output, ANTHROPIC_API_KEY: SECRET });
      // One iteration that did not finish the work: the loop stops at its limit (exit 7).
      if (r.status !== 7) throw new Error(`${mode}: loop exited ${r.status}: ${r.stderr.slice(-500)}`);
      ours.push(r);
      const f = measureProcess([process.execPath, join(tools, 'floor.mjs')], dir, { PATH, BENCH_OUTPUT: output, ANTHROPIC_API_KEY: SECRET });
      if (f.status !== 0) throw new Error(`${mode}: floor exited ${f.status}: ${f.stderr.slice(-500)}`);
      floor.push(f);
    }
    const pick = (runs, key) => median(runs.map((r) => r[key]));
    const figures = { wallMs: pick(ours, 'wallMs'), floorWallMs: pick(floor, 'wallMs') };
    if (canMeasureRss) {
      Object.assign(figures, {
        cpuMs: pick(ours, 'cpuMs'),
        floorCpuMs: pick(floor, 'cpuMs'),
        rssMb: Math.max(...ours.map((r) => r.rssMb)),
        floorRssMb: Math.max(...floor.map((r) => r.rssMb)),
      });
    }
    results[mode] = figures;
    const ratio = (a, b) => `${(a / b).toFixed(1)}×`;
    rows.push(
      row(
        `${mode}: wall`,
        `${figures.wallMs.toFixed(0)} ms / floor ${figures.floorWallMs.toFixed(0)} = ${ratio(figures.wallMs, figures.floorWallMs)}${ORIGINAL[mode] ? ` (original ${ORIGINAL[mode]})` : ''}`,
        '—',
        true,
      ),
    );
    if (canMeasureRss) {
      rows.push(
        row(`${mode}: CPU`, `${figures.cpuMs.toFixed(0)} ms / floor ${figures.floorCpuMs.toFixed(0)} = ${ratio(figures.cpuMs, figures.floorCpuMs)}`, '—', true),
      );
      rows.push(
        row(
          `${mode}: peak RSS`,
          `${figures.rssMb.toFixed(0)} MB / floor ${figures.floorRssMb.toFixed(0)} = ${ratio(figures.rssMb, figures.floorRssMb)}`,
          `≤ ${RSS_TARGET_MB} MB`,
          figures.rssMb <= RSS_TARGET_MB,
        ),
      );
    }
  }
  printTable(`ralph --max-loops 1 on a 50 MB agent output (median of ${RUNS}; floor: node reading the same fake claude)`, rows);
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench', 'results', 'agent-output.json'),
    `${JSON.stringify({ runs: RUNS, targetRssMb: RSS_TARGET_MB, modes: results }, null, 2)}\n`,
  );
  saveFigures(
    'agent-output',
    Object.entries(results).flatMap(([mode, f]) => [
      { measure: `50 MB ${mode}: wall`, ours: f.wallMs, floor: f.floorWallMs, unit: 'ms', target: '—', ok: true },
      ...(f.rssMb === undefined
        ? []
        : [
            {
              measure: `50 MB ${mode}: peak RSS`,
              ours: f.rssMb,
              floor: f.floorRssMb,
              unit: 'MB',
              target: `≤ ${RSS_TARGET_MB} MB`,
              ok: f.rssMb <= RSS_TARGET_MB,
            },
          ]),
    ]),
  );
} finally {
  for (const dir of dirs) cleanup(dir);
  cleanup(tools);
}
