import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { saveDocument } from '../../../src/state/document-store.js';
import { RATE_LIMIT } from '../../../src/state/documents/rate-limit.js';
import { LiveLogFile } from '../../../src/state/live-log-file.js';
import { ralphPaths } from '../../../src/state/paths.js';
import { tempDir } from '../../helpers/temp-dir.js';

// The temporary names are random; here they are made predictable, so a link can be planted at the very name a write uses.
vi.mock('../../../src/state/temp-name.js', () => ({ tempNameBeside: (path: string) => `${path}.planted.tmp` }));

describe('a link planted at the temporary file name', () => {
  it('is never written through by a document save', () => {
    const paths = ralphPaths(tempDir('ralph-docs-'));
    mkdirSync(paths.dir, { recursive: true });
    const outside = join(tempDir('ralph-outside-'), 'victim.txt');
    writeFileSync(outside, 'keep me');
    symlinkSync(outside, `${paths.rateLimit}.planted.tmp`);
    saveDocument(paths, RATE_LIMIT, { calls: [] });
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    expect(JSON.parse(readFileSync(paths.rateLimit, 'utf8'))).toEqual({ calls: [] });
  });

  it('is never written through by live.log', () => {
    const dir = tempDir('ralph-live-');
    const outside = join(tempDir('ralph-outside-'), 'victim.txt');
    writeFileSync(outside, 'keep me');
    const live = join(dir, 'live.log');
    symlinkSync(outside, `${live}.planted.tmp`);
    const file = LiveLogFile.start(live, '=== Loop #1 ===', 1024, (flush) => flush());
    file.close();
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    expect(readFileSync(live, 'utf8')).toContain('=== Loop #1 ===');
  });
});
