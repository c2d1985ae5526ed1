// Loop overhead per iteration with an instant mock agent and no pause (spec §13: ≤ 30 ms median).
// Measured from the session recording: the gap between consecutive iteration starts.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, env, median, p90, printTable, project, RALPH, row } from './lib.mjs';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 60);

function measure(git) {
  const responses = Array.from({ length: ITERATIONS }, (_, i) => ({
    output: `step ${i}\n---RALPH_STATUS---\nSTATUS: IN_PROGRESS\nEXIT_SIGNAL: false\n---END_RALPH_STATUS---`,
    files: { [`src/f${i}.txt`]: String(i) },
  }));
  const dir = project({ git, responses });
  try {
    const r = spawnSync(process.execPath, [RALPH, '--backend', 'mock', '--pause', '0', '--max-loops', String(ITERATIONS), '--calls', '1000'], {
      cwd: dir,
      env: env(),
      encoding: 'utf8',
    });
    if (r.status !== 7) throw new Error(`loop exited ${r.status}: ${r.stderr.slice(-500)}`);
    const starts = readFileSync(join(dir, '.ralph', 'logs', 'session.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((e) => e.event === 'iteration.start')
      .map((e) => e.ts);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]);
    return gaps.slice(5); // skip warm-up
  } finally {
    cleanup(dir);
  }
}

const rows = [];
for (const git of [true, false]) {
  const gaps = measure(git);
  const m = median(gaps);
  rows.push(row(`per iteration, ${git ? 'git repository' : 'plain directory'}`, `${m.toFixed(1)} ms (p90 ${p90(gaps).toFixed(1)})`, '≤ 30 ms', m <= 30));
}
printTable(`Loop overhead (${ITERATIONS} iterations, instant mock agent, --pause 0)`, rows);
