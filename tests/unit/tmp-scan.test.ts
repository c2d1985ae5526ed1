import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'vitest';
import { scanOutput } from '../../src/core/output-scanner.js';
test('x', () => {
  const dir = '/work/main/tests/fixtures/claude-cli/';
  for (const f of readdirSync(dir)) {
    if (!/\.(json|jsonl|txt)$/.test(f) || f === 'manifest.json') continue;
    const o = scanOutput(readFileSync(dir + f, 'utf8'));
    console.log(f, o.format, o.hasResult, o.isError, o.sessionId, o.costUsd, JSON.stringify(o.text.head.slice(-60)), o.rateLimit, o.apiRetries, o.streamError, o.lastToolUse, o.warnings, o.permissionDenials, o.text.errorLines);
  }
});
