import { lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileStamp, padToSize, rewriteInPlace } from '../../../src/state/in-place-rewrite.js';
import { tempDir } from '../../helpers/temp-dir.js';

const stamp = (path: string): string => fileStamp(lstatSync(path, { bigint: true }));

describe('padToSize', () => {
  it.each([
    ['{}\n', 6, '{}   \n'],
    ['{}', 5, '{}   '],
    ['{"a":1}\n', 4, '{"a":1}\n'],
    ['', 2, '  '],
  ])('%j to %i bytes → %j', (text, size, padded) => {
    expect(padToSize(Buffer.from(text), size).toString()).toBe(padded);
  });
});

describe('rewriteInPlace', () => {
  it('overwrites the version it was given and returns the new stamp', () => {
    const path = join(tempDir('ralph-in-place-'), 'doc.json');
    writeFileSync(path, '{"count": 10}\n');
    const next = rewriteInPlace(path, '{"count": 9}\n', stamp(path));
    expect(next).toBe(stamp(path));
    expect(readFileSync(path, 'utf8')).toBe('{"count": 9} \n');
  });

  it('refuses a file changed since the stamp: the caller replaces it atomically', () => {
    const path = join(tempDir('ralph-in-place-'), 'doc.json');
    writeFileSync(path, '{"count": 1}\n');
    const old = stamp(path);
    writeFileSync(path, '{"count": 22}\n');
    expect(rewriteInPlace(path, '{"count": 3}\n', old)).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('{"count": 22}\n');
  });

  it('refuses a missing file and a directory', () => {
    const dir = tempDir('ralph-in-place-');
    expect(rewriteInPlace(join(dir, 'gone.json'), '{}\n', 'x')).toBeUndefined();
    expect(() => rewriteInPlace(dir, '{}\n', stamp(dir))).not.toThrow();
    expect(rewriteInPlace(dir, '{}\n', stamp(dir))).toBeUndefined();
  });
});
