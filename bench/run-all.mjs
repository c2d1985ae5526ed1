// Runs every benchmark script in bench/ and prints their tables (npm run bench).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const scripts = [
  'cold-start.mjs',
  'loop-overhead.mjs',
  'analysis.mjs',
  'live-stream.mjs',
  'agent-output.mjs',
  'verify-bench.mjs',
  'checkpoint-bench.mjs',
  'agent-tools-bench.mjs',
];
let failed = false;
for (const script of scripts) {
  const path = join(import.meta.dirname, script);
  if (!existsSync(path)) continue;
  const r = spawnSync(process.execPath, [path], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
