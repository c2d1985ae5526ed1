#!/usr/bin/env node
// Verify-gate executor benchmark (spec §13: spawn < 50 ms, timeout ±250 ms, memory < 10 MB).
// Run after `npx tsc -p tsconfig.build.json`:  node --expose-gc bench/verify-bench.mjs [--quick]
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildVerifyEnv } from '../dist/core/verify-env.js';
import { runVerifyCommand } from '../dist/infra/verify-executor.js';

const quick = process.argv.includes('--quick');
const env = buildVerifyEnv(process.env);
const cwd = tmpdir();
const gc = globalThis.gc ?? (() => {});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const mb = (bytes) => bytes / (1024 * 1024);
const fmt = (n, digits = 1) => n.toFixed(digits);

async function spawnLatency(runs) {
  const latencies = [];
  const totals = [];
  for (let i = 0; i < runs; i += 1) {
    let startedAt = 0;
    const t0 = performance.now();
    const r = await runVerifyCommand({ command: 'true', cwd, timeoutMs: 10_000, env, onStart: () => (startedAt = performance.now()) });
    totals.push(performance.now() - t0);
    if (!r.passed) throw new Error('`true` failed');
    latencies.push(startedAt - t0);
  }
  return { latencies, totals };
}

async function timeoutPrecision(limits, repeat) {
  const rows = [];
  for (const command of ['sleep 30', "sh -c 'sleep 30 & wait'"]) {
    for (const limit of limits) {
      for (let i = 0; i < repeat; i += 1) {
        const t0 = performance.now();
        const r = await runVerifyCommand({ command, cwd, timeoutMs: limit, env });
        const actual = performance.now() - t0;
        if (!r.timedOut) throw new Error(`${command} did not time out`);
        rows.push({ command, limit, actual, error: actual - limit });
      }
    }
  }
  return rows;
}

async function memoryUnderFlood(megabytes) {
  gc();
  gc();
  const base = process.memoryUsage();
  let peakHeap = 0;
  let peakExternal = 0;
  let peakRss = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed - base.heapUsed);
    peakExternal = Math.max(peakExternal, m.external + m.arrayBuffers - base.external - base.arrayBuffers);
    peakRss = Math.max(peakRss, m.rss - base.rss);
  };
  const timer = setInterval(sample, 5);
  const t0 = performance.now();
  const r = await runVerifyCommand({ command: `head -c ${megabytes * 1024 * 1024} /dev/zero | tr '\\0' 'x'`, cwd, timeoutMs: 120_000, env });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  sample();
  gc();
  gc();
  const after = process.memoryUsage();
  if (!r.passed || !r.stdoutTruncated || r.stdout.length !== 5000 + '[...truncated, showing last 5000 chars...]\n'.length)
    throw new Error('flood run did not truncate as expected');
  // What the result itself keeps: two tails of at most 5,000 characters plus the notice.
  const retainedResult = Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr);
  return {
    seconds,
    throughputMBs: megabytes / seconds,
    peakHeapMB: mb(peakHeap),
    peakExternalMB: mb(peakExternal),
    peakRssMB: mb(peakRss),
    retainedAfterGcMB: mb(after.heapUsed - base.heapUsed + after.external - base.external),
    resultBytes: retainedResult,
  };
}

const spawnRuns = quick ? 20 : 100;
const { latencies, totals } = await spawnLatency(spawnRuns);
const precision = await timeoutPrecision(quick ? [500, 1000] : [500, 1000, 2000], quick ? 2 : 3);
const flood = await memoryUnderFlood(100);

const spawnMedian = median(latencies);
const worstError = Math.max(...precision.map((r) => Math.abs(r.error)));
const rows = [
  ['spawn latency (invoke → process start), median', `${fmt(spawnMedian, 2)} ms`, '< 50 ms', spawnMedian < 50],
  ['spawn latency p95', `${fmt(pct(latencies, 95), 2)} ms`, '', true],
  [`full run of \`true\`, median of ${spawnRuns}`, `${fmt(median(totals), 2)} ms`, '', true],
  ...[...new Set(precision.map((r) => `${r.command}|${r.limit}`))].map((key) => {
    const [command, limit] = key.split('|');
    const errs = precision.filter((r) => r.command === command && r.limit === Number(limit)).map((r) => r.error);
    return [
      `timeout ${limit} ms, ${command}: actual − requested (median, worst)`,
      `${fmt(median(errs))} / ${fmt(Math.max(...errs.map(Math.abs)))} ms`,
      '±250 ms',
      Math.max(...errs.map(Math.abs)) <= 250,
    ];
  }),
  ['100 MB of output: peak JS heap growth', `${fmt(flood.peakHeapMB, 2)} MB`, '< 10 MB', flood.peakHeapMB < 10],
  ['100 MB of output: peak external/ArrayBuffer growth', `${fmt(flood.peakExternalMB, 2)} MB`, '', true],
  ['100 MB of output: peak RSS growth', `${fmt(flood.peakRssMB, 2)} MB`, '', true],
  ['100 MB of output: retained after GC', `${fmt(flood.retainedAfterGcMB, 2)} MB`, '', true],
  ['100 MB of output: bytes kept in the result', `${flood.resultBytes} B`, '', true],
  ['100 MB of output: time / throughput', `${fmt(flood.seconds, 2)} s / ${fmt(flood.throughputMBs, 0)} MB/s`, '', true],
];

const width = Math.max(...rows.map((r) => r[0].length));
console.log(`verify-bench (node ${process.version}, ${process.platform}, gc ${globalThis.gc ? 'exposed' : 'NOT exposed: run with --expose-gc'})`);
for (const [name, value, budget, ok] of rows)
  console.log(`${name.padEnd(width)}  ${value.padStart(18)}  ${budget.padEnd(9)} ${budget ? (ok ? 'ok' : 'OVER') : ''}`);

const out = join(dirname(fileURLToPath(import.meta.url)), 'results');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'verify-bench.json'),
  `${JSON.stringify({ at: new Date().toISOString(), node: process.version, spawnLatencyMs: { median: spawnMedian, p95: pct(latencies, 95) }, precision, flood }, null, 2)}\n`,
);
process.exitCode = rows.every((r) => !r[2] || r[3]) ? 0 : 1;
