// Small helpers shared by the benchmark scripts (plain Node, run after `npm run build`).
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const RALPH = join(ROOT, 'bin', 'ralph.js');

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function p90(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))];
}

export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function cleanup(dir) {
  rmSync(dir, { recursive: true, force: true });
}

export function write(root, files) {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** A Ralph project (optionally a git repo) with a mock script of `responses`. */
export function project({ git = true, responses = [] } = {}) {
  const dir = tempDir('ralph-bench-');
  write(dir, {
    '.ralph/PROMPT.md': '# bench\n',
    '.ralph/fix_plan.md': '- [ ] work\n',
    '.ralph/AGENT.md': 'bench\n',
    '.ralphrc': '',
    '.gitignore': '.ralph/*\n!.ralph/PROMPT.md\n!.ralph/fix_plan.md\n!.ralph/AGENT.md\n',
    '.ralph/mock_responses.json': JSON.stringify({ responses }),
  });
  if (git) {
    const g = (...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    g('init', '-q', '-b', 'main');
    g('config', 'user.email', 'bench@example.invalid');
    g('config', 'user.name', 'bench');
    g('add', '-A');
    g('commit', '-q', '-m', 'init');
  }
  return dir;
}

export function env(extra = {}) {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', NO_COLOR: '1', ...extra };
}

/**
 * Wall time of `node <args>` over `runs` runs, in the bench's clean environment. The floor
 * (`node -e 0`) goes through here too: an inherited NODE_EXTRA_CA_CERTS alone adds ~60 ms to a
 * start, so a floor measured with the caller's environment is not a floor.
 */
export function timeNode(args, cwd, runs) {
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { cwd, env: env(), stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
  }
  return times;
}

export function timeCommand(args, cwd, runs) {
  return timeNode([RALPH, ...args], cwd, runs);
}

export function row(name, value, budget, ok) {
  return { name, value, budget, verdict: ok ? 'ok' : 'OVER BUDGET' };
}

export function printTable(title, rows) {
  process.stdout.write(`\n${title}\n`);
  const w = Math.max(...rows.map((r) => r.name.length));
  for (const r of rows) process.stdout.write(`  ${r.name.padEnd(w)}  ${String(r.value).padEnd(24)}  budget ${String(r.budget).padEnd(14)} ${r.verdict}\n`);
}

// GNU time reports the CPU time and peak RSS of the process it runs; without it only wall time is measured.
const GNU_TIME = '/usr/bin/time';
export const canMeasureRss = existsSync(GNU_TIME);

/**
 * Runs `args` in `cwd` with the bench's clean environment plus `extraEnv`, stderr to a file (as a
 * terminal takes it, never into this process's memory). Returns the exit status, what it printed
 * on stderr, wall ms, and — under GNU time — CPU ms (user + system) and peak RSS in MB.
 */
export function measureProcess(args, cwd, extraEnv = {}) {
  const errPath = join(cwd, 'bench-stderr.txt');
  const err = openSync(errPath, 'w');
  const command = canMeasureRss ? [GNU_TIME, '-f', '%U %S %M', ...args] : args;
  const start = process.hrtime.bigint();
  const r = spawnSync(command[0], command.slice(1), { cwd, env: env(extraEnv), stdio: ['ignore', 'ignore', err] });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  closeSync(err);
  const stderr = readFileSync(errPath, 'utf8').trim();
  rmSync(errPath, { force: true });
  if (!canMeasureRss) return { status: r.status, stderr, wallMs };
  const [user, sys, rssKb] = stderr.split('\n').at(-1).split(' ').map(Number);
  return { status: r.status, stderr, wallMs, cpuMs: (user + sys) * 1000, rssMb: rssKb / 1024 };
}

/** The gaps (ms) between the starts of a loop's last `iterations` iterations, from its session recording. */
export function iterationGaps(dir, iterations) {
  const starts = readFileSync(join(dir, '.ralph', 'logs', 'session.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => e.event === 'iteration.start')
    .map((e) => e.ts)
    .slice(-iterations);
  return starts.slice(1).map((t, i) => t - starts[i]);
}
