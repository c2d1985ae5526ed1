import { lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeJsonDocument } from '../../../src/state/document-writes.js';
import { addSecretValues } from '../../../src/state/redaction.js';
import { tempDir } from '../../helpers/temp-dir.js';

const inode = (path: string): bigint => lstatSync(path, { bigint: true }).ino;

describe('writeJsonDocument', () => {
  it('leaves a file that already holds the same document alone: no new file is renamed over it', () => {
    const path = join(tempDir('ralph-doc-writes-'), 'state.json');
    writeJsonDocument(path, { state: 'CLOSED', count: 0 });
    const first = inode(path);
    writeJsonDocument(path, { state: 'CLOSED', count: 0 });
    expect(inode(path)).toBe(first);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ state: 'CLOSED', count: 0 });
  });

  it('writes a changed document as a new file renamed over the old one', () => {
    const path = join(tempDir('ralph-doc-writes-'), 'state.json');
    writeJsonDocument(path, { count: 0 });
    const first = inode(path);
    writeJsonDocument(path, { count: 1 });
    expect(inode(path)).not.toBe(first);
    expect(readFileSync(path, 'utf8')).toBe('{\n  "count": 1\n}\n');
  });

  it('writes the same document again when the file was removed, replaced or edited since', () => {
    const path = join(tempDir('ralph-doc-writes-'), 'state.json');
    const doc = { count: 2 };
    const text = '{\n  "count": 2\n}\n';
    writeJsonDocument(path, doc);
    rmSync(path);
    writeJsonDocument(path, doc);
    expect(readFileSync(path, 'utf8')).toBe(text);

    writeFileSync(`${path}.other`, '{"count": 9}\n');
    renameSync(`${path}.other`, path);
    writeJsonDocument(path, doc);
    expect(readFileSync(path, 'utf8')).toBe(text);

    writeFileSync(path, '{ "count": 7 }\n');
    writeJsonDocument(path, doc);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('writes the same document again once a newly known secret changes what it becomes on disk', () => {
    const path = join(tempDir('ralph-doc-writes-'), 'state.json');
    const secret = 'sk-doc-writes-0123456789abcdef';
    writeJsonDocument(path, { note: `key ${secret}` });
    expect(readFileSync(path, 'utf8')).toContain(secret);
    addSecretValues([{ name: 'DOC_WRITES_TEST_KEY', value: secret }]);
    writeJsonDocument(path, { note: `key ${secret}` });
    expect(readFileSync(path, 'utf8')).not.toContain(secret);
  });
});
