import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../../../src/errors.js';
import { FILE_NOT_FOUND_EXIT, MAX_SOURCE_BYTES, readSourceDocument } from '../../../../../src/features/project/import/read-source.js';
import { tempDir } from '../../../../helpers/temp-dir.js';

function failure(cwd: string, path: string): RalphError {
  try {
    readSourceDocument(path, cwd);
  } catch (error) {
    if (error instanceof RalphError) return error;
    throw error;
  }
  throw new Error('expected a RalphError');
}

describe('readSourceDocument', () => {
  it.each([
    ['prd.md', '# PRD\n- a\n'],
    ['spec.txt', 'plain text'],
    ['req.json', '{"features": ["a"]}'],
    ['NOTES', 'no extension'],
  ])('reads %s', (name, text) => {
    const dir = tempDir();
    writeFileSync(join(dir, name), text);
    expect(readSourceDocument(name, dir)).toEqual({ path: join(dir, name), name, text, bytes: Buffer.byteLength(text) });
  });

  it('drops a UTF-8 byte order mark', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bom.md'), '\uFEFF# x');
    expect(readSourceDocument('bom.md', dir).text).toBe('# x');
  });

  it('refuses, with a clear message, what is not a usable text document', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'empty.md'), ' \n\t\n');
    writeFileSync(join(dir, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    writeFileSync(join(dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    writeFileSync(join(dir, 'big.md'), 'x'.repeat(MAX_SOURCE_BYTES + 1));
    mkdirSync(join(dir, 'folder'));
    expect(failure(dir, 'missing.md')).toMatchObject({ message: 'document not found: missing.md', exitCode: FILE_NOT_FOUND_EXIT });
    expect(failure(dir, 'empty.md')).toMatchObject({ message: 'empty.md is empty', exitCode: 1 });
    expect(failure(dir, 'image.png').message).toMatch(/binary/);
    expect(failure(dir, 'latin1.txt').message).toMatch(/not UTF-8/);
    expect(failure(dir, 'big.md').message).toMatch(/too large/);
    expect(failure(dir, 'folder').message).toMatch(/is a folder/);
    expect(failure(dir, 'image.png').hint).toMatch(/\.md, \.txt or \.json/);
  });
});
