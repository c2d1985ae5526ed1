// `ralph --inspect` on a recording with damaged lines (a line of garbage in
// the middle, the last line cut off as a kill -9 leaves it): the intact
// records are shown and the skipped lines counted, on stderr and in the JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { cleanEnv, ralph } from '../helpers/run-cli.js';

function record(ts: number, event: string, iteration?: number): string {
  return JSON.stringify({ ts, event, data: iteration === undefined ? {} : { iteration } });
}

describe('ralph --inspect with a damaged recording', () => {
  it('skips the bad lines, says how many, and shows the rest', async () => {
    const dir = ralphProject({ git: false });
    mkdirSync(join(dir, '.ralph', 'logs'), { recursive: true });
    const lines = [
      record(1000, 'loop.start'),
      record(2000, 'iteration.start', 1),
      'garbage in the middle',
      record(3000, 'iteration.end', 1),
      '{"ts": 4000, "event": "loop.ex',
    ];
    writeFileSync(join(dir, '.ralph', 'logs', 'session.jsonl'), lines.join('\n'));
    const r = await ralph(['--inspect', '--format', 'json'], dir, cleanEnv());
    expect(r.exitCode, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { records: Array<{ event: string }>; skipped_lines: number };
    expect(json.records.map((x) => x.event)).toEqual(['loop.start', 'iteration.start', 'iteration.end']);
    expect(json.skipped_lines).toBe(2);
    expect(r.stderr).toContain('skipped 2 damaged lines');
    expect(r.stderr).toContain('line 3: not valid JSON');
    expect(r.stderr).not.toContain('garbage');
  });

  it('a clean recording reports skipped_lines 0 and no warning', async () => {
    const dir = ralphProject({ git: false });
    mkdirSync(join(dir, '.ralph', 'logs'), { recursive: true });
    writeFileSync(join(dir, '.ralph', 'logs', 'session.jsonl'), `${record(1000, 'loop.start')}\n`);
    const r = await ralph(['--inspect', '--format', 'summary'], dir, cleanEnv());
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total_events: 1, skipped_lines: 0 });
    expect(r.stderr).not.toContain('skipped');
  });
});
