// What --sandbox costs: per iteration (each agent call wrapped by the sandbox runtime, its
// placeholders removed after it) and once per run (the runtime's proxy, the contained `true`
// that checks the machine can run it), against the same loop uncontained. The agent is the fake
// `claude` of the tests (tests/fixtures/bin/claude), answering at once, so what is left is
// Ralph's and the sandbox's own time. Runs are interleaved in rounds so load weighs on both alike.
// Reported, not judged: the cost depends on the kernel and the machine, and there is no floor to
// hold it to. Skipped (with the reason) where bubblewrap cannot run.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, env, iterationGaps, median, project, RALPH, ROOT, tempDir } from './lib.mjs';
import { saveFigures } from './summary.mjs';

const ROUNDS = 3;
const ITERATIONS = Number(process.env.BENCH_SANDBOX_ITERATIONS ?? 12);
const FAKE_BIN = join(ROOT, 'tests', 'fixtures', 'bin');

function bwrapRuns() {
  const r = spawnSync('bwrap', ['--unshare-user', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'], {
    encoding: 'utf8',
  });
  if (r.error) return `bubblewrap is not installed (${r.error.message})`;
  return r.status === 0 ? undefined : `bubblewrap cannot run here: ${r.stderr.trim()}`;
}

/** One loop of `ITERATIONS` calls: its wall time and the gaps between its iteration starts (ms). */
function runLoop(dir, scenario, sandboxed) {
  const args = [RALPH, '--backend', 'claude', '--pause', '0', '--max-loops', String(ITERATIONS), '--calls', '100000', ...(sandboxed ? ['--sandbox'] : [])];
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, {
    cwd: dir,
    env: env({ PATH: `${FAKE_BIN}:${process.env.PATH}`, FAKE_CLAUDE_SCENARIO: scenario }),
    encoding: 'utf8',
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 7) throw new Error(`loop exited ${r.status}: ${r.stderr.slice(-800)}`);
  return { wallMs, gaps: iterationGaps(dir, ITERATIONS) };
}

const unavailable = bwrapRuns();
if (unavailable) {
  process.stdout.write(`\n--sandbox overhead: skipped (${unavailable})\n`);
} else {
  const scratch = tempDir('ralph-bench-sandbox-');
  const scenario = join(scratch, 'scenario.json');
  writeFileSync(scenario, JSON.stringify({ default: { fixture: 'json-success-tool-use.json' } }));
  const plain = { wall: [], gaps: [] };
  const contained = { wall: [], gaps: [] };
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [sandboxed, into] of [
        [false, plain],
        [true, contained],
      ]) {
        const dir = project({ git: true });
        try {
          const run = runLoop(dir, scenario, sandboxed);
          into.wall.push(run.wallMs);
          into.gaps.push(...run.gaps);
        } finally {
          cleanup(dir);
        }
      }
    }
  } finally {
    cleanup(scratch);
  }
  const perIteration = median(contained.gaps) - median(plain.gaps);
  // The rest of the difference in wall time is paid once: start-up check, proxy, reset.
  const once = median(contained.wall) - median(plain.wall) - perIteration * (ITERATIONS - 1);
  const ms = (v) => `${v.toFixed(0)} ms`;
  process.stdout.write(`\n--sandbox overhead (fake claude answering at once, ${ITERATIONS} iterations × ${ROUNDS} rounds, median)\n`);
  process.stdout.write(`  iteration, uncontained   ${ms(median(plain.gaps))}\n`);
  process.stdout.write(`  iteration, --sandbox     ${ms(median(contained.gaps))}  (+${ms(perIteration)} per iteration)\n`);
  process.stdout.write(`  once per run             +${ms(once)}  (runtime start, contained true, reset)\n`);
  saveFigures('sandbox-bench', [
    { measure: '--sandbox cost per iteration', ours: perIteration, floor: 0, unit: 'ms', target: 'reported', ok: true },
    { measure: '--sandbox cost once per run', ours: once, unit: 'ms', target: 'reported', ok: true },
  ]);
}
