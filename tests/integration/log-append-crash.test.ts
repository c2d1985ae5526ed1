// A log line is on disk once appended, even if the process is killed right after: a real process, a real kill.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('a log kept open between lines', () => {
  it('keeps every appended line when its process is killed with SIGKILL right after', () => {
    const log = join(tempDir(), 'logs', 'session.jsonl');
    const module = pathToFileURL(join(ROOT, 'dist', 'state', 'json-file.js')).href;
    const script = [
      `const { appendLine } = await import(${JSON.stringify(module)});`,
      `for (let i = 0; i < 3; i += 1) appendLine(${JSON.stringify(log)}, JSON.stringify({ event: 'e', i }));`,
      `process.kill(process.pid, 'SIGKILL');`,
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.signal).toBe('SIGKILL');
    expect(readFileSync(log, 'utf8')).toBe('{"event":"e","i":0}\n{"event":"e","i":1}\n{"event":"e","i":2}\n');
  });
});
