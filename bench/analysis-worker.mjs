// Child process for bench/analysis.mjs: reads one output file in 64 KB chunks through the
// OutputScanner, analyzes it, and reports the time and the process's peak RSS.
import { openSync, readSync, closeSync } from 'node:fs';
import { OutputScanner } from '../dist/backends/claude/output-scanner.js';
import { analyzeResponse } from '../dist/core/response-analyzer.js';

const file = process.argv[2];
const start = process.hrtime.bigint();
const scanner = new OutputScanner();
const fd = openSync(file, 'r');
const buf = Buffer.alloc(64 * 1024);
const decoder = new TextDecoder();
for (;;) {
  const n = readSync(fd, buf, 0, buf.length, null);
  if (n === 0) break;
  scanner.write(decoder.decode(buf.subarray(0, n), { stream: true }));
}
closeSync(fd);
const output = scanner.end();
const analysis = analyzeResponse(output, {
  loop: 1,
  allowedTools: [],
  progress: { method: 'none', filesChanged: 0, changedFiles: [], committed: false, tasksChecked: 0 },
  previousErrorLines: [],
});
const ms = Number(process.hrtime.bigint() - start) / 1e6;
process.stdout.write(
  JSON.stringify({
    ms,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    format: output.format,
    exitSignal: analysis.exitSignal,
    errorLines: analysis.errorLines.length,
  }),
);
