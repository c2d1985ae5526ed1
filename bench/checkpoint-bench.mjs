#!/usr/bin/env node
// Checkpoint benchmark: checkpoint + drop on a repository of 10,000 files (≤ 300 ms, ≤ 2× what git itself needs).
// Run after `npx tsc -p tsconfig.build.json`:  node bench/checkpoint-bench.mjs [--files N] [--runs N] [--keep]
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProcessRunner } from '../dist/infra/process-runner.js';
import { createCheckpoint, dropCheckpoint, rollbackToCheckpoint } from '../dist/checkpoints/index.js';
import { GitWorkspace } from '../dist/infra/git-workspace.js';
import { saveFigures } from './summary.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const FILES = arg('--files', 10_000);
const RUNS = arg('--runs', 9);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (n) => `${n.toFixed(1)} ms`;

const dir = mkdtempSync(join(tmpdir(), 'ralph-cp-bench-'));
const git = (...args) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
const write = (path, text) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};

// A project-like tree: 100 directories of 100 files, a .gitignore, ignored build output.
git('init', '-q', '-b', 'main');
git('config', 'user.name', 'Bench');
git('config', 'user.email', 'bench@example.invalid');
git('config', 'gc.auto', '0');
write('.gitignore', 'node_modules/\ndist/\n.ralph/.*\n.ralph/logs/\n');
for (let i = 0; i < FILES; i += 1)
  write(`src/d${String(Math.floor(i / 100)).padStart(3, '0')}/f${i}.ts`, `export const v${i} = ${i};\n// ${'x'.repeat(i % 200)}\n`);
for (let i = 0; i < 500; i += 1) write(`node_modules/dep${i % 20}/f${i}.js`, 'module.exports = 1;\n');
git('add', '-A');
git('commit', '-q', '-m', 'bench fixture');
// Let the index and the refs age past the racy window so what was read of them is trusted, as in a real project.
await new Promise((r) => setTimeout(r, 2100));
git('update-index', '--really-refresh');

// A realistic iteration start: some edits, a staged file, a few untracked files.
for (let i = 0; i < 20; i += 1) write(`src/d000/f${i}.ts`, `export const v${i} = 'edited';\n`);
write('src/d001/f100.ts', 'staged\n');
git('add', 'src/d001/f100.ts');
for (let i = 0; i < 5; i += 1) write(`src/new/n${i}.ts`, `new ${i}\n`);

const ws = new GitWorkspace(dir, createProcessRunner());
await ws.repo();
// What git itself needs on the same tree, timed in the same runs so machine load
// weighs on both alike: one `git status` (read-only, as ours is), and writing the tree objects from a
// copy of the index (the real index is left alone, as a checkpoint leaves it).
const tempIndex = join(dir, '.git', 'bench-floor-index');
const timeGit = (env, ...args) => {
  const t0 = performance.now();
  execFileSync('git', args, { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  return performance.now() - t0;
};
const floorStatus = [];
const floorWriteTree = [];
const floorStash = [];
const create = [];
const drop = [];
const both = [];
for (let run = 0; run < RUNS + 1; run += 1) {
  copyFileSync(join(dir, '.git', 'index'), tempIndex);
  const status = timeGit({}, '--no-optional-locks', 'status', '--porcelain');
  const writeTree = timeGit({ GIT_INDEX_FILE: tempIndex }, 'write-tree');
  // What git needs to record the work tree's changes itself (objects only, no ref).
  const stash = timeGit({}, 'stash', 'create');
  const t0 = performance.now();
  const made = await createCheckpoint(ws, { loop: run, now: Date.now() });
  const t1 = performance.now();
  if (!made.ok) throw new Error(made.reason);
  const dropped = await dropCheckpoint(ws, made.checkpoint);
  const t2 = performance.now();
  if (!dropped.ok || !dropped.dropped) throw new Error('drop failed');
  if (run === 0) continue; // warm-up: module loading, first git calls
  floorStatus.push(status);
  floorWriteTree.push(writeTree);
  floorStash.push(stash);
  create.push(t1 - t0);
  drop.push(t2 - t1);
  both.push(t2 - t0);
}

// The git processes one checkpoint + drop of the runs above starts, as git's own trace reports them: a figure machine load cannot blur.
const traceFile = join(dir, '.git', 'bench-trace.jsonl');
process.env.GIT_TRACE2_EVENT = traceFile;
const traced = await createCheckpoint(ws, { loop: RUNS + 1, now: Date.now() });
if (!traced.ok) throw new Error(traced.reason);
await dropCheckpoint(ws, traced.checkpoint);
delete process.env.GIT_TRACE2_EVENT;
const gitCommands = readFileSync(traceFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line))
  .filter((e) => e.event === 'start')
  .map((e) => e.argv.slice(1).find((a, i, all) => a !== '-c' && all[i - 1] !== '-c'));
rmSync(traceFile, { force: true });

// The iteration after the agent committed its work: the index and HEAD changed, a few files too.
const AFTER_COMMIT_RUNS = 5;
const afterCommit = [];
const afterCommitFloor = [];
for (let run = 0; run < AFTER_COMMIT_RUNS; run += 1) {
  for (let i = 0; i < 5; i += 1) write(`src/d003/f${300 + i}.ts`, `export const v = ${run};\n`);
  git('commit', '-q', '-am', `agent ${run}`);
  copyFileSync(join(dir, '.git', 'index'), tempIndex);
  const floorMs = timeGit({}, '--no-optional-locks', 'status', '--porcelain') + timeGit({ GIT_INDEX_FILE: tempIndex }, 'write-tree');
  const t0 = performance.now();
  const made = await createCheckpoint(ws, { loop: 100 + run, now: Date.now() });
  if (!made.ok) throw new Error(made.reason);
  await dropCheckpoint(ws, made.checkpoint);
  afterCommit.push(performance.now() - t0);
  afterCommitFloor.push(floorMs);
}

// Rollback has no budget; measured for information on the same tree.
const cp = await createCheckpoint(ws, { loop: 99, now: Date.now() });
if (!cp.ok) throw new Error(cp.reason);
for (let i = 0; i < 50; i += 1) write(`src/d002/f${200 + i}.ts`, 'agent edit\n');
for (let i = 0; i < 20; i += 1) write(`src/agent/a${i}.ts`, 'agent file\n');
git('add', '-A');
git('commit', '-q', '-m', 'agent');
const r0 = performance.now();
const rb = await rollbackToCheckpoint(ws, cp.checkpoint, { attemptLabel: 'bench' });
const rollbackMs = performance.now() - r0;
if (!rb.ok) throw new Error(rb.reason);

rmSync(tempIndex, { force: true });

const floor = median(floorStatus) + median(floorWriteTree);
const ratio = median(both) / floor;
const rows = [
  [`checkpoint + drop, median of ${RUNS}`, fmt(median(both)), '≤ 300 ms', median(both) <= 300],
  ['floor: git status --porcelain', fmt(median(floorStatus)), '', true],
  ['floor: git write-tree (temp index)', fmt(median(floorWriteTree)), '', true],
  ['ours ÷ floor (status + write-tree)', `${ratio.toFixed(2)}×`, '≤ 2×', ratio <= 2],
  ['floor: git stash create', fmt(median(floorStash)), '', true],
  ['ours ÷ (status + stash create)', `${(median(both) / (median(floorStatus) + median(floorStash))).toFixed(2)}×`, '', true],
  ['checkpoint + drop, worst', fmt(Math.max(...both)), '', true],
  ['checkpoint (create) median', fmt(median(create)), '', true],
  ['drop median', fmt(median(drop)), '', true],
  [`after the agent committed, median of ${AFTER_COMMIT_RUNS}`, fmt(median(afterCommit)), '', true],
  ['  ours ÷ floor (status + write-tree)', `${(median(afterCommit) / median(afterCommitFloor)).toFixed(2)}×`, '', true],
  ['git processes per checkpoint + drop', String(gitCommands.length), '', true],
  ['rollback (agent committed 50 edits + 20 new files)', fmt(rollbackMs), '', true],
];
const width = Math.max(...rows.map((r) => r[0].length));
console.log(`checkpoint-bench: ${FILES} tracked files + 500 ignored, git ${git('--version').trim().replace('git version ', '')}, node ${process.version}`);
for (const [name, value, budget, ok] of rows)
  console.log(`${name.padEnd(width)}  ${value.padStart(10)}  ${budget.padEnd(9)} ${budget ? (ok ? 'ok' : 'OVER') : ''}`);
console.log(`  git ${gitCommands.join(', ')}`);
// Peak memory of this process, which built the fixture and ran every checkpoint: the checkpoints hold little beyond it.
const peakRssMb = process.resourceUsage().maxRSS / 1024;
console.log(`peak RSS of the bench process: ${peakRssMb.toFixed(0)} MB`);

const out = join(dirname(fileURLToPath(import.meta.url)), 'results');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'checkpoint-bench.json'),
  `${JSON.stringify({ at: new Date().toISOString(), files: FILES, runs: RUNS, createMs: create, dropMs: drop, totalMs: both, rollbackMs, floorStatusMs: floorStatus, floorWriteTreeMs: floorWriteTree, floorStashCreateMs: floorStash, ratio, afterCommitMs: afterCommit, afterCommitFloorMs: afterCommitFloor, gitCommands, peakRssMb }, null, 2)}\n`,
);
saveFigures('checkpoint-bench', [
  { measure: `checkpoint + drop, ${FILES} files`, ours: median(both), floor, unit: 'ms', target: '≤ 2× floor', ok: ratio <= 2, peakRssMb },
  {
    measure: `  after the agent committed`,
    ours: median(afterCommit),
    floor: median(afterCommitFloor),
    unit: 'ms',
    target: '—',
    ok: true,
  },
]);
if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
else console.log(`repository kept at ${dir}`);
process.exitCode = median(both) <= 300 ? 0 : 1;
