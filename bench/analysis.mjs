// Analysis of a 50 MB agent output (spec §13: ≤ 1 s, peak RSS ≤ 150 MB), in three shapes:
// a stream-json log, one giant result object, and plain text.
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { cleanup, median, printTable, row, tempDir } from './lib.mjs';
import { streamJson } from './stream-json.mjs';

const TARGET = 50 * 1024 * 1024;
const STATUS = '\n---RALPH_STATUS---\nSTATUS: COMPLETE\nEXIT_SIGNAL: true\n---END_RALPH_STATUS---';
const dir = tempDir('ralph-bench-analysis-');

async function writeFile(name, chunks) {
  const path = join(dir, name);
  const out = createWriteStream(path);
  for (const chunk of chunks()) if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
  await new Promise((r) => out.end(r));
  return path;
}

function* giantResult() {
  yield '{"type":"result","subtype":"success","is_error":false,"result":"';
  const line = JSON.stringify('Error: flaky test output line with some detail\n').slice(1, -1);
  for (let size = 0; size < TARGET; size += line.length * 1000) yield line.repeat(1000);
  yield `${JSON.stringify(STATUS).slice(1, -1)}","session_id":"s","total_cost_usd":0.5}`;
}

function* plainText() {
  const block = 'compiling module ... ok\nrunning tests ... ok\n'.repeat(1000);
  for (let size = 0; size < TARGET; size += block.length) yield block;
  yield `All tasks complete.${STATUS}\n`;
}

try {
  const rows = [];
  for (const [name, gen] of [
    ['stream-json log', () => streamJson(TARGET, `All done.${STATUS}`)],
    ['one 50 MB result object', giantResult],
    ['plain text', plainText],
  ]) {
    const file = await writeFile(`${name.replace(/\W+/g, '-')}.out`, gen);
    const runs = [];
    for (let i = 0; i < 3; i += 1) {
      const r = spawnSync(process.execPath, [join(import.meta.dirname, 'analysis-worker.mjs'), file], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      runs.push(JSON.parse(r.stdout));
    }
    const ms = median(runs.map((r) => r.ms));
    const rss = Math.max(...runs.map((r) => r.maxRssMb));
    rows.push(row(`${name}: time`, `${ms.toFixed(0)} ms`, '≤ 1000 ms', ms <= 1000));
    rows.push(row(`${name}: peak RSS`, `${rss.toFixed(0)} MB`, '≤ 150 MB', rss <= 150));
    if (!runs[0].exitSignal) throw new Error(`${name}: the RALPH_STATUS block at the end was not found`);
  }
  printTable('Analysis of a 50 MB agent output (median of 3)', rows);
} finally {
  cleanup(dir);
}
