// The whole `ralph --live` process on a 50 MB stream-json agent output: wall time and peak RSS,
// against the original's 3.5 s and 6 MB (measured side by side on the same machine).
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, createWriteStream, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, env, median, printTable, project, RALPH, row, tempDir, write } from './lib.mjs';
import { streamJson } from './stream-json.mjs';

const TARGET = 50 * 1024 * 1024;
const RUNS = 3;
const STATUS = '\n---RALPH_STATUS---\nSTATUS: IN_PROGRESS\nEXIT_SIGNAL: false\n---END_RALPH_STATUS---';
// GNU time reports the peak RSS of the process it runs; without it only the time is measured.
const GNU_TIME = '/usr/bin/time';

const tools = tempDir('ralph-bench-live-');
let dir;
try {
  const stream = join(tools, 'stream.jsonl');
  const out = createWriteStream(stream);
  for (const line of streamJson(TARGET, `All done.${STATUS}`)) if (!out.write(line)) await new Promise((r) => out.once('drain', r));
  await new Promise((r) => out.end(r));
  // A fake claude that prints the whole stream as fast as the pipe takes it.
  write(tools, {
    'bin/claude': `#!/bin/sh\nfor a in "$@"; do [ "$a" = --version ] && { echo '2.1.197 (Claude Code)'; exit 0; }; done\nexec cat '${stream}'\n`,
  });
  chmodSync(join(tools, 'bin', 'claude'), 0o755);
  const withRss = existsSync(GNU_TIME);
  const times = [];
  const rss = [];
  for (let i = 0; i < RUNS; i += 1) {
    dir = project({ git: false });
    const args = [process.execPath, RALPH, '--live', '--max-loops', '1', '--pause', '0'];
    const command = withRss ? [GNU_TIME, '-f', '%M', ...args] : args;
    const start = process.hrtime.bigint();
    // --live prints the stream on stderr: to a file, as a terminal would take it, not into this process's memory.
    const errPath = join(dir, 'stderr.txt');
    const err = openSync(errPath, 'w');
    const r = spawnSync(command[0], command.slice(1), {
      cwd: dir,
      env: env({ PATH: `${join(tools, 'bin')}:${process.env.PATH}` }),
      stdio: ['ignore', 'ignore', err],
    });
    closeSync(err);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    const stderr = readFileSync(errPath, 'utf8').trim();
    if (r.status !== 7) throw new Error(`loop exited ${r.status}: ${stderr.slice(-500)}`);
    if (statSync(join(dir, '.ralph', 'live.log')).size === 0) throw new Error('live.log stayed empty');
    if (withRss) rss.push(Number(stderr.split('\n').at(-1)) / 1024);
    cleanup(dir);
    dir = undefined;
  }
  const ms = median(times);
  const rows = [row('time', `${ms.toFixed(0)} ms (original 3500 ms)`, '≤ 700 ms', ms <= 700)];
  if (withRss) rows.push(row('peak RSS', `${Math.max(...rss).toFixed(0)} MB`, '≤ 100 MB', Math.max(...rss) <= 100));
  printTable(`ralph --live on a 50 MB stream-json output (median of ${RUNS})`, rows);
} finally {
  if (dir) cleanup(dir);
  cleanup(tools);
}
