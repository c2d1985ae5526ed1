// Loop overhead per iteration with an instant mock agent and no pause, beside what the machine
// itself needs for the same iteration (the floor), measured in the same run and interleaved
// (a loop run, then its floor, in rounds) so machine load weighs on both alike.
//
// Floors:
// - git repository: one `git status --porcelain` on the same repository (what measuring
//   progress needs), plus what the instant agent itself writes in an iteration (its work file,
//   and its output log as a new file renamed into place, as the mock backend writes it): that
//   is the agent's work, not Ralph's;
// - with a verify command and checkpoints: that, plus `git stash create` (what git itself needs to
//   record the work: it finds what changed, stores the changed files, writes the trees and the
//   commits) and `sh -c true` (the verify command itself, through the shell);
// - plain directory (no git): a bare node loop that writes the same run files once each
//   (atomically, as Ralph does: temp file and rename; the logs appended) and walks the project
//   once with stat, what measuring progress needs without git.
// - real agent process: the same minimal agent (/bin/sh) spawned by a bare node script and waited
//   for, in a loop, plus one `git status --porcelain` (what measuring progress needs): the time
//   from one agent's exit to the next one's start, in the same repository.
// Per-iteration figures come from the session recording: the gap between iteration starts. With a
// real agent process the agent stamps its own start and end (`date +%s%N`), and the figure is the
// gap from one call's end to the next call's start, which is all Ralph's: the mock agent is no
// process, and misses what Ralph does around a real one (its environment, the run marker and the
// watchdog, the output streams and their drain, the sweep for what it left running).
// Flatness: one 1,000-iteration run, median of iterations 5–50 beside 950–1,000.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { cleanup, env, iterationGaps, median, project, RALPH, ROOT, tempDir, write } from './lib.mjs';
import { saveFigures } from './summary.mjs';

const ROUNDS = 3;
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 16);
// A checkpointed iteration costs several times more: fewer of them keep the bench short.
const VERIFY_ITERATIONS = Math.max(6, Math.round(ITERATIONS / 3));
const FLOOR_RUNS = 6;
const FLAT_ITERATIONS = Number(process.env.BENCH_FLAT_ITERATIONS ?? 1000);
const BIG_FILES = 10_000;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const status = (i) => `step ${i}\n---RALPH_STATUS---\nSTATUS: IN_PROGRESS\nEXIT_SIGNAL: false\n---END_RALPH_STATUS---`;
// The agent edits the same file every iteration: the tree (and git's own cost) stays the same size.
const responses = (n) => Array.from({ length: n }, (_, i) => ({ output: status(i), files: { 'src/work.txt': `${i}\n` } }));

function makeProject({ git, files = 0, iterations }) {
  const dir = project({ git: false, responses: responses(iterations) });
  write(dir, { 'src/work.txt': 'start\n' });
  for (let i = 0; i < files; i += 1) write(dir, { [`src/d${String(Math.floor(i / 100)).padStart(3, '0')}/f${i}.ts`]: `export const v${i} = ${i};\n` });
  if (git) {
    const g = (...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    g('init', '-q', '-b', 'main');
    g('config', 'user.email', 'bench@example.invalid');
    g('config', 'user.name', 'bench');
    g('config', 'gc.auto', '0');
    g('add', '-A');
    g('commit', '-q', '-m', 'init');
  }
  return dir;
}

/** One loop run: the gaps between its iteration starts, and the process's peak RSS in MB. */
function runLoop(dir, iterations, extra) {
  const rssFile = join(dir, '.ralph', 'bench-rss');
  const args = [RALPH, '--backend', 'mock', '--pause', '0', '--max-loops', String(iterations), '--calls', '100000', ...extra];
  const [file, argv] = TIME ? [TIME, ['-f', '%M', '-o', rssFile, process.execPath, ...args]] : [process.execPath, args];
  const r = spawnSync(file, argv, { cwd: dir, env: env(), encoding: 'utf8' });
  if (r.status !== 7) throw new Error(`loop exited ${r.status}: ${r.stderr.slice(-800)}`);
  const rssMb = TIME ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 : NaN;
  return { gaps: iterationGaps(dir, iterations), rssMb };
}

function timed(fn) {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

const git = (dir, args, extraEnv = {}) =>
  execFileSync('git', args, { cwd: dir, env: { ...env(), ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });

let agentCounter = 0;
/** What the mock agent writes in one iteration: the next step of its work file and its output log. */
function agentWrites(dir) {
  agentCounter += 1;
  const log = join(dir, '.ralph', 'logs', `floor_agent_${agentCounter}.log`);
  writeFileSync(join(dir, 'src', 'work.txt'), `${agentCounter}\n`);
  writeFileSync(`${log}.tmp`, status(agentCounter), { flag: 'wx' });
  renameSync(`${log}.tmp`, log);
}

/** The git floor of one iteration, by part (ms): the agent's writes, status, and with a checkpoint stash create and the verify shell. */
function gitFloor(dir, withCheckpoint) {
  const parts = { agent: timed(() => agentWrites(dir)), status: timed(() => git(dir, ['--no-optional-locks', 'status', '--porcelain'])) };
  if (!withCheckpoint) return parts;
  parts.stashCreate = timed(() => git(dir, ['stash', 'create']));
  parts.verifyShell = timed(() => execFileSync('sh', ['-c', 'true'], { cwd: dir, stdio: 'ignore' }));
  // The narrower floor of earlier runs, shown beside it: writing the index's tree from a copy of the index.
  const tempIndex = join(dir, '.git', 'bench-floor-index');
  copyFileSync(join(dir, '.git', 'index'), tempIndex);
  parts.writeTree = timed(() => git(dir, ['write-tree'], { GIT_INDEX_FILE: tempIndex }));
  rmSync(tempIndex, { force: true });
  return parts;
}

/** The floor: every part but the narrower alternative. */
const partsTotal = ({ writeTree: _alternative, ...parts }) => Object.values(parts).reduce((a, b) => a + b, 0);

let floorCounter = 0;
/** The plain directory's floor: the run files written once each, the logs appended, one stat walk. */
function plainFloor(dir) {
  const files = [
    'status.json',
    'progress.json',
    '.ralph_session',
    '.rate_limit_state',
    '.response_analysis',
    '.exit_signals',
    '.circuit_breaker_state',
    '.iteration_history',
    'live.log',
  ];
  const text = `${JSON.stringify({ loop: floorCounter, status: 'running', note: 'x'.repeat(400) }, null, 2)}\n`;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.ralph' || e.name === '.git') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else statSync(p);
    }
  };
  return timed(() => {
    floorCounter += 1;
    const state = join(dir, '.ralph');
    for (const name of files) {
      const tmp = join(state, `.${name}.floor.tmp`);
      writeFileSync(tmp, text, { flag: 'w' });
      renameSync(tmp, join(state, name));
    }
    writeFileSync(join(state, 'logs', `floor_output_${floorCounter}.log`), text);
    for (const log of ['session.jsonl', 'metrics.jsonl', 'ralph.log']) appendFileSync(join(state, 'logs', `floor-${log}`), `${text.slice(0, 200)}\n`);
    writeFileSync(join(dir, 'src', 'work.txt'), `${floorCounter}\n`);
    walk(dir);
  });
}

function measureMode(dir, { name, git: inGit, verify = false }) {
  const iterations = (verify ? VERIFY_ITERATIONS : ITERATIONS) + 1;
  const extra = verify ? ['--verify', 'true'] : [];
  const ours = [];
  const floor = [];
  const parts = [];
  const rss = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const run = runLoop(dir, iterations, extra);
    ours.push(...run.gaps.slice(2)); // the first iterations warm up (module loading, first git calls)
    rss.push(run.rssMb);
    for (let i = 0; i < FLOOR_RUNS; i += 1) {
      if (!inGit) floor.push(plainFloor(dir));
      else {
        const p = gitFloor(dir, verify);
        parts.push(p);
        floor.push(partsTotal(p));
      }
    }
  }
  const m = median(ours);
  const f = median(floor);
  // Each part's median, to show what the floor is made of.
  const floorParts = parts.length ? Object.fromEntries(Object.keys(parts[0]).map((k) => [k, median(parts.map((p) => p[k]))])) : undefined;
  return { name, oursMs: m, floorMs: f, ratio: m / f, peakRssMb: Math.max(...rss), samples: ours.length, floorParts };
}

/** Each project is made once (the big one takes seconds) and serves the modes run on it. */
function measureAll(modes) {
  const results = [];
  for (const group of modes) {
    const dir = makeProject({ git: group.git, files: group.files ?? 0, iterations: ITERATIONS + 1 });
    try {
      for (const mode of group.modes) results.push(measureMode(dir, { ...mode, git: group.git }));
    } finally {
      cleanup(dir);
    }
  }
  return results;
}

/** The session recording's iteration starts (epoch ms, whole milliseconds). */
function iterationStarts(dir) {
  return readFileSync(join(dir, '.ralph', 'logs', 'session.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => e.event === 'iteration.start')
    .map((e) => e.ts);
}

const FLAT_WINDOW = 10;
/**
 * The time of an iteration between starts[from] and starts[to]: the median of the means over
 * every run of FLAT_WINDOW iterations in that span. The stamps are whole milliseconds, so one
 * gap of a 5 ms iteration reads 4, 5 or 6 and a median of single gaps jumps by 20 %; the mean
 * over 10 iterations is exact to 0.1 ms (the rounding of its two ends only), and the median of
 * those means still leaves out an iteration that a busy machine held up.
 */
function windowedIterationMs(starts, from, to) {
  const means = [];
  for (let i = from; i + FLAT_WINDOW <= to; i += 1) means.push((starts[i + FLAT_WINDOW] - starts[i]) / FLAT_WINDOW);
  return median(means);
}

const FLAT_RUNS = Number(process.env.BENCH_FLAT_RUNS ?? 3);
/** FLAT_RUNS long runs; the figure is the median run's, and the spread of the runs is shown beside it. */
function measureFlatness() {
  const runs = [];
  for (let run = 0; run < FLAT_RUNS; run += 1) {
    const dir = makeProject({ git: true, iterations: FLAT_ITERATIONS });
    try {
      const { rssMb } = runLoop(dir, FLAT_ITERATIONS, []);
      const starts = iterationStarts(dir);
      const early = windowedIterationMs(starts, 4, 50);
      const late = windowedIterationMs(starts, starts.length - 51, starts.length);
      runs.push({ earlyMs: early, lateMs: late, ratio: late / early, peakRssMb: rssMb });
    } finally {
      cleanup(dir);
    }
  }
  const byRatio = [...runs].sort((a, b) => a.ratio - b.ratio);
  const mid = byRatio[Math.floor((byRatio.length - 1) / 2)];
  return {
    name: `flatness, git small repo, ${FLAT_ITERATIONS} iterations (${FLAT_RUNS} runs)`,
    ...mid,
    ratios: runs.map((r) => r.ratio),
    peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
  };
}

// A real agent process: the least a Claude Code CLI does in a call. It stamps its start and end,
// changes the work file (the same one each time), and prints a result with a status block.
const REAL_ITERATIONS = Number(process.env.BENCH_REAL_ITERATIONS ?? 40);
const RESULT_LINE = JSON.stringify({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: status(0),
  session_id: 'bench-session',
  total_cost_usd: 0,
  usage: { input_tokens: 1, output_tokens: 1 },
});
const AGENT_SCRIPT = `#!/bin/sh
for a in "$@"; do [ "$a" = --version ] && { echo '2.1.197 (Claude Code)'; exit 0; }; done
echo "s $(date +%s%N)" >> "$BENCH_STAMPS"
echo "$$" > src/work.txt
printf '%s\\n' '${RESULT_LINE}'
echo "e $(date +%s%N)" >> "$BENCH_STAMPS"
`;
// The floor: the same agent spawned with the same pipes and waited for, by node and nothing else.
const FLOOR_SCRIPT = `import { spawn } from 'node:child_process';
const [agent, runs] = process.argv.slice(2);
for (let i = 0; i < Number(runs); i += 1) {
  await new Promise((resolve) => {
    const child = spawn(agent, ['-p', 'x'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', () => undefined);
    child.stderr.on('data', () => undefined);
    child.on('close', resolve);
  });
}
`;

/** The gaps (ms) from each call's end to the next call's start, and the whole iterations, from the agent's own stamps. */
function stampGaps(file) {
  const stamps = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' '));
  const ms = (kind) => stamps.filter(([k]) => k === kind).map(([, ns]) => Number(BigInt(ns) / 1000n) / 1000);
  const [starts, ends] = [ms('s'), ms('e')];
  // The first calls warm up (module loading, the first git calls).
  const gaps = starts.slice(2).map((start, i) => start - ends[i + 1]);
  const iterations = starts.slice(2).map((start, i) => start - starts[i + 1]);
  return { gaps, iterations };
}

function measureRealAgent() {
  const tools = tempDir('ralph-bench-agent-');
  const agent = join(tools, 'claude');
  const floorScript = join(tools, 'floor.mjs');
  writeFileSync(agent, AGENT_SCRIPT);
  chmodSync(agent, 0o755);
  writeFileSync(floorScript, FLOOR_SCRIPT);
  const dir = makeProject({ git: true, iterations: 1 });
  writeFileSync(join(dir, '.ralphrc'), `CLAUDE_CODE_CMD="${agent}"\n`);
  const ours = { gaps: [], iterations: [] };
  const floor = { spawn: [], status: [] };
  let peakRssMb = 0;
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      const stamps = join(tools, `ralph-${round}.stamps`);
      const rssFile = join(tools, 'rss');
      const args = [RALPH, '--backend', 'claude', '--pause', '0', '--max-loops', String(REAL_ITERATIONS), '--calls', '100000'];
      const [file, argv] = TIME ? [TIME, ['-f', '%M', '-o', rssFile, process.execPath, ...args]] : [process.execPath, args];
      const r = spawnSync(file, argv, { cwd: dir, env: env({ BENCH_STAMPS: stamps }), encoding: 'utf8' });
      if (r.status !== 7) throw new Error(`loop with a real agent exited ${r.status}: ${r.stderr.slice(-800)}`);
      if (TIME) peakRssMb = Math.max(peakRssMb, Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024);
      const run = stampGaps(stamps);
      ours.gaps.push(...run.gaps);
      ours.iterations.push(...run.iterations);
      const floorStamps = join(tools, `floor-${round}.stamps`);
      const f = spawnSync(process.execPath, [floorScript, agent, String(REAL_ITERATIONS)], {
        cwd: dir,
        env: env({ BENCH_STAMPS: floorStamps }),
        encoding: 'utf8',
      });
      if (f.status !== 0) throw new Error(`the floor's node exited ${f.status}: ${f.stderr.slice(-800)}`);
      floor.spawn.push(...stampGaps(floorStamps).gaps);
      for (let i = 0; i < FLOOR_RUNS; i += 1) floor.status.push(timed(() => git(dir, ['--no-optional-locks', 'status', '--porcelain'])));
    }
  } finally {
    cleanup(dir);
    cleanup(tools);
  }
  const floorParts = { spawn: median(floor.spawn), status: median(floor.status) };
  const floorMs = floorParts.spawn + floorParts.status;
  const oursMs = median(ours.gaps);
  return {
    name: 'real agent process (/bin/sh), small repo: its exit → the next start',
    oursMs,
    floorMs,
    ratio: oursMs / floorMs,
    peakRssMb,
    samples: ours.gaps.length,
    floorParts,
    iterationMs: median(ours.iterations),
  };
}

const big = BIG_FILES.toLocaleString('en');
// BENCH_ROWS=small: the small repository's rows alone (mock and real agent), for a quick look.
const SMALL_ONLY = process.env.BENCH_ROWS === 'small';
const results = [
  ...measureAll([{ git: true, modes: [{ name: 'git, small repo' }, { name: '--verify true (checkpoints), small repo', verify: true }] }]),
  measureRealAgent(),
  ...(SMALL_ONLY
    ? []
    : measureAll([
        { git: false, modes: [{ name: 'plain directory' }] },
        { git: true, files: BIG_FILES, modes: [{ name: `git, ${big} files` }, { name: `--verify true (checkpoints), ${big} files`, verify: true }] },
      ])),
];
const flat = SMALL_ONLY ? undefined : measureFlatness();

const TARGET = 2;
const fmt = (n) => `${n.toFixed(1)} ms`;
process.stdout.write(
  `\nLoop overhead per iteration (instant mock agent, --pause 0; ${ROUNDS} rounds of ${ITERATIONS} iterations, ${VERIFY_ITERATIONS} with --verify, ${REAL_ITERATIONS} with a real agent process; floor interleaved)\n`,
);
const width = Math.max(...results.map((r) => r.name.length), flat?.name.length ?? 0);
const PART_NAMES = {
  spawn: 'node spawning the agent and waiting',
  agent: "the agent's writes",
  status: 'git status',
  stashCreate: 'git stash create',
  verifyShell: 'sh -c true',
};
const alternative = (r) =>
  r.floorParts?.writeTree === undefined
    ? ''
    : `; with write-tree for stash create: floor ${fmt(r.floorMs - r.floorParts.stashCreate + r.floorParts.writeTree)}, ${(r.oursMs / (r.floorMs - r.floorParts.stashCreate + r.floorParts.writeTree)).toFixed(2)}×`;
for (const r of results) {
  const verdict = r.ratio <= TARGET ? 'ok' : 'OVER';
  const parts =
    r.floorParts && Object.keys(r.floorParts).length > 1
      ? `  floor = ${Object.entries(r.floorParts)
          .filter(([k]) => PART_NAMES[k])
          .map(([k, v]) => `${PART_NAMES[k]} ${v.toFixed(1)}`)
          .join(' + ')}${alternative(r)}${r.iterationMs === undefined ? '' : `; whole iteration ${fmt(r.iterationMs)}`}`
      : '';
  process.stdout.write(
    `  ${r.name.padEnd(width)}  ours ${fmt(r.oursMs).padStart(9)}  floor ${fmt(r.floorMs).padStart(9)}  ${`${r.ratio.toFixed(2)}×`.padStart(6)}  target ≤ ${TARGET}×  ${verdict.padEnd(4)}  peak RSS ${r.peakRssMb.toFixed(0)} MB${parts}\n`,
  );
}
const flatOk = flat === undefined || flat.ratio <= 1.25;
if (flat) {
  process.stdout.write(
    `  ${flat.name.padEnd(width)}  5–50 ${fmt(flat.earlyMs).padStart(9)}  last 50 ${fmt(flat.lateMs).padStart(7)}  ${`${flat.ratio.toFixed(2)}×`.padStart(6)}  target ≤ 1.25×  ${flatOk ? 'ok' : 'OVER'}  peak RSS ${flat.peakRssMb.toFixed(0)} MB  runs ${flat.ratios.map((r) => `${r.toFixed(2)}×`).join(' ')}\n`,
  );
}
process.stdout.write(
  "  floors: the agent's own writes + git status (+ git stash create and `sh -c true` with --verify); real agent process: node spawning the same agent and waiting for it, + git status; plain directory: the same run files written once each, the agent's writes and one stat walk\n",
);

const out = join(ROOT, 'bench', 'results');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'loop-overhead.json'),
  `${JSON.stringify({ at: new Date().toISOString(), rounds: ROUNDS, iterations: ITERATIONS, target: TARGET, modes: results, flatness: flat }, null, 2)}\n`,
);
saveFigures('loop-overhead', [
  ...results.map((r) => ({
    measure: `loop overhead per iteration, ${r.name}`,
    ours: r.oursMs,
    floor: r.floorMs,
    unit: 'ms',
    target: `≤ ${TARGET}× floor`,
    ok: r.ratio <= TARGET,
    peakRssMb: r.peakRssMb,
  })),
  ...(flat
    ? [
        {
          measure: `${flat.name}: last 50 against 5–50`,
          ours: flat.lateMs,
          floor: flat.earlyMs,
          unit: 'ms',
          target: '≤ 1.25×',
          ok: flatOk,
          peakRssMb: flat.peakRssMb,
        },
      ]
    : []),
]);
process.exitCode = results.every((r) => r.ratio <= TARGET) && flatOk ? 0 : 1;
