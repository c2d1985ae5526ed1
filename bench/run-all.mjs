// Runs every benchmark script in bench/, each printing its own table, then one summary table of
// the headline figures with their floors and ratios (npm run bench).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatFigures, readFigures, resetFigures } from './summary.mjs';

const scripts = [
  'cold-start.mjs',
  'loop-overhead.mjs',
  'analysis.mjs',
  'live-stream.mjs',
  'agent-output.mjs',
  'verify-bench.mjs',
  'checkpoint-bench.mjs',
  'agent-tools-bench.mjs',
  'sandbox-bench.mjs',
];
resetFigures();
let failed = false;
for (const script of scripts) {
  const path = join(import.meta.dirname, script);
  if (!existsSync(path)) continue;
  const r = spawnSync(process.execPath, [path], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
const figures = readFigures();
if (figures.length > 0) {
  process.stdout.write(`\nSummary: each figure beside its floor (node ${process.version}, ${new Date().toISOString()})\n`);
  process.stdout.write(`${formatFigures(figures).join('\n')}\n`);
}
process.exitCode = failed ? 1 : 0;
