import { NO_REDACTION } from '../../../src/core/secret-redactor.js';
// A real process that prints without end, through the real Claude backend, with a small cap injected.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeBackend } from '../../../src/backends/claude/claude-backend.js';
import { describeCut } from '../../../src/state/capped-log.js';
import { createMemoryLogger } from '../../../src/ui/logger.js';
import { tempDir } from '../../helpers/temp-dir.js';

const LINE = 'endless output line\n';

describe('the per-call output log of an agent that never stops printing', () => {
  it('keeps head and tail within the cap, says what was cut, and stays bounded however much is printed', async () => {
    const dir = tempDir('capped-');
    const logger = createMemoryLogger();
    const cap = { maxBytes: 64 * 1024, tailBytes: 16 * 1024 };
    const backend = claudeBackend({
      outputRedactor: () => NO_REDACTION,
      settings: { command: ['sh', '-c', `yes '${LINE.trim()}'`, 'sh'], model: '', effort: '', extraArgs: [] },
      outputFormat: 'text',
      allowedTools: [],
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      logger,
      killGraceMs: 500,
      outputLogCap: cap,
    });
    const stop = new AbortController();
    let seen = 0;
    const outputLogPath = join(dir, 'claude_output_loop1.log');
    const run = await backend.run(
      {
        loop: 1,
        cwd: dir,
        prompt: 'p',
        loopContext: 'c',
        timeoutMs: 60_000,
        outputLogPath,
        live: false,
        onOutput: (text) => {
          seen += text.length;
          // 100 times the cap: the log must not grow with it.
          if (seen > 100 * cap.maxBytes) stop.abort();
        },
      },
      stop.signal,
    );
    expect(run.end).toBe('interrupted');
    expect(seen).toBeGreaterThan(100 * cap.maxBytes);

    const text = readFileSync(outputLogPath, 'latin1');
    const notice = /\n\[\.\.\. Ralph cut (\d+) bytes of output here: this log keeps the first (\d+) and the last (\d+) bytes \.\.\.\]\n/.exec(text);
    expect(notice).not.toBeNull();
    const [cut, head, tail] = [Number(notice?.[1]), Number(notice?.[2]), Number(notice?.[3])];
    expect(head).toBe(cap.maxBytes - cap.tailBytes);
    expect(tail).toBe(cap.tailBytes);
    expect(statSync(outputLogPath).size).toBe(head + tail + describeCut(cut, head, tail).length);
    expect(head + cut + tail).toBeGreaterThanOrEqual(100 * cap.maxBytes);
    expect(text.startsWith(LINE.repeat(10))).toBe(true);
    expect(text.slice(-tail).replace(/^[^\n]*\n/, '')).toMatch(/^(endless output line\n)+(endless output l?i?n?e?)?$/);
    expect(logger.lines.some((l) => l.includes('bytes were cut from the middle of'))).toBe(true);
  });
});
