import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunFile, writeRunFile } from '../../../src/state/run-file.js';
import { tempDir } from '../../helpers/temp-dir.js';

const base = { pid: 4242, start_time: '123', host: 'h', token: 'abcdefgh12', processes: [] };

describe('the run id in the run file', () => {
  it('is written and read back', () => {
    const path = join(tempDir(), 'run.json');
    writeRunFile(path, { pid: 4242, startTime: '123', host: 'h', token: 'abcdefgh12', processes: [], runId: '2026-11-28_10-00-00-abc123' });
    expect(readRunFile(path)?.runId).toBe('2026-11-28_10-00-00-abc123');
  });

  it.each([
    ['missing (a run file of an earlier version)', undefined],
    ['not text', 42],
    ['a path', '../../etc/passwd'],
    ['too long', 'x'.repeat(81)],
  ])('%s: the run is known, without an id (it is not resumed)', (_what, runId) => {
    const path = join(tempDir(), 'run.json');
    writeFileSync(path, JSON.stringify({ ...base, ...(runId !== undefined ? { run_id: runId } : {}) }));
    const read = readRunFile(path);
    expect(read?.pid).toBe(4242);
    expect(read?.runId).toBeUndefined();
  });
});

describe('the run kind in the run file', () => {
  it('is written and read back', () => {
    const path = join(tempDir(), 'run.json');
    writeRunFile(path, { pid: 4242, startTime: '123', host: 'h', token: 'abcdefgh12', processes: [], runId: 'r-1', runKind: 'task:0123456789abcdef' });
    expect(readRunFile(path)?.runKind).toBe('task:0123456789abcdef');
  });

  it.each([
    ['missing (a run file of an earlier version)', undefined],
    ['not text', 42],
    ['task text instead of its digest', 'task:Add a --json flag'],
    ['another word', 'review'],
  ])('%s: the run is known, without a kind (no run resumes it)', (_what, runKind) => {
    const path = join(tempDir(), 'run.json');
    writeFileSync(path, JSON.stringify({ ...base, run_id: 'r-1', ...(runKind !== undefined ? { run_kind: runKind } : {}) }));
    const read = readRunFile(path);
    expect(read?.runId).toBe('r-1');
    expect(read?.runKind).toBeUndefined();
  });
});
