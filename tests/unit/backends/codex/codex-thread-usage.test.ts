import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { threadUsageFile } from '../../../../src/backends/codex/codex-thread-usage.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const totals = { inputTokens: 2000, outputTokens: 160, cacheReadInputTokens: 400, cacheCreationInputTokens: 0 };

describe('threadUsageFile', () => {
  it('gives the last thread’s totals to the next run of Ralph, and nothing for another thread', () => {
    const path = join(tempDir(), 'codex_thread_usage.json');
    threadUsageFile(path).remember('t-1', totals);
    const next = threadUsageFile(path);
    expect(next.before('t-1')).toEqual(totals);
    expect(next.before('t-2')).toBeUndefined();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ thread_id: 't-1', totals });
  });

  it('keeps only the last thread', () => {
    const path = join(tempDir(), 'codex_thread_usage.json');
    const store = threadUsageFile(path);
    store.remember('t-1', totals);
    store.remember('t-2', { ...totals, outputTokens: 1 });
    expect(store.before('t-1')).toBeUndefined();
    expect(threadUsageFile(path).before('t-2')).toEqual({ ...totals, outputTokens: 1 });
  });

  it('reads a missing or damaged file as nothing known, and a directory it cannot write as no error', () => {
    const dir = tempDir();
    expect(threadUsageFile(join(dir, 'none.json')).before('t-1')).toBeUndefined();
    writeFileSync(join(dir, 'bad.json'), '{"thread_id":');
    expect(threadUsageFile(join(dir, 'bad.json')).before('t-1')).toBeUndefined();
    const unwritable = threadUsageFile(join(dir, 'missing-dir', 'usage.json'));
    expect(() => unwritable.remember('t-1', totals)).not.toThrow();
    expect(unwritable.before('t-1')).toEqual(totals);
  });
});
