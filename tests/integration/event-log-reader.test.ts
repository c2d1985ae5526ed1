import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEventLog } from '../../src/features/observe/loop-files.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('readEventLog', () => {
  it('reads a recording from disk and reports a corrupt line by its number', () => {
    const path = join(tempDir('ralph-session-'), 'session.jsonl');
    writeFileSync(path, '{"ts":1,"event":"loop.start","data":{"project":"/p"}}\n{"ts":2,"event":"iteration.start","data":{"iteration":1}}\n{"ts":3,\n');
    const read = readEventLog(path);
    expect(read.records.map((r) => r.event)).toEqual(['loop.start', 'iteration.start']);
    expect(read.error?.line).toBe(3);
  });

  it('a missing file is an error value at line 0', () => {
    const path = join(tempDir('ralph-session-'), 'nope.jsonl');
    expect(readEventLog(path)).toEqual({ records: [], error: { line: 0, message: `session recording not found: ${path}` } });
  });
});
