import { linkSync, lstatSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

  it('writes a changed document into the file it wrote, in place, padded to the old size', () => {
    const path = join(tempDir('ralph-doc-writes-'), 'state.json');
    writeJsonDocument(path, { count: 10 });
    const first = inode(path);
    writeJsonDocument(path, { count: 9 });
    expect(inode(path)).toBe(first);
    expect(readFileSync(path, 'utf8')).toBe('{\n  "count": 9\n} \n');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ count: 9 });
    writeJsonDocument(path, { count: 1000 });
    expect(inode(path)).toBe(first);
    expect(readFileSync(path, 'utf8')).toBe('{\n  "count": 1000\n}\n');
  });

  it('replaces the file atomically when the text shrank to less than half of it, so it does not stay large', () => {
    const path = join(tempDir('ralph-doc-writes-'), 'state.json');
    writeJsonDocument(path, { lines: ['x'.repeat(200)] });
    const first = inode(path);
    writeJsonDocument(path, { lines: [] });
    expect(inode(path)).not.toBe(first);
    expect(readFileSync(path, 'utf8')).toBe('{\n  "lines": []\n}\n');
  });

  it('never writes in place into a file that gained a second name: the other name keeps its text', () => {
    const dir = tempDir('ralph-doc-writes-');
    const path = join(dir, 'state.json');
    writeJsonDocument(path, { count: 1 });
    linkSync(path, join(dir, 'elsewhere.json'));
    writeJsonDocument(path, { count: 2 });
    expect(readFileSync(join(dir, 'elsewhere.json'), 'utf8')).toBe('{\n  "count": 1\n}\n');
    expect(readFileSync(path, 'utf8')).toBe('{\n  "count": 2\n}\n');
  });

  it('replaces a symbolic link planted over the file instead of writing where it points', () => {
    const dir = tempDir('ralph-doc-writes-');
    const path = join(dir, 'state.json');
    const target = join(dir, 'precious.txt');
    writeFileSync(target, 'user data\n');
    writeJsonDocument(path, { count: 1 });
    rmSync(path);
    symlinkSync(target, path);
    writeJsonDocument(path, { count: 2 });
    expect(readFileSync(target, 'utf8')).toBe('user data\n');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('{\n  "count": 2\n}\n');
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
