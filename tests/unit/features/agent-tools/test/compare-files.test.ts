import { describe, expect, it } from 'vitest';
import { compareFiles } from '../../../../../src/features/agent-tools/test/test-diff.js';
import type { SnapshotFile } from '../../../../../src/features/agent-tools/test/file-snapshot.js';

const file = (text: string | null, sha = text ?? 'bin'): SnapshotFile => ({ bytes: text?.length ?? 10, sha256: sha, text });

describe('compareFiles', () => {
  it('sorts files into changed, added and deleted with line diffs', () => {
    const before = { 'a.txt': file('1\n2\n'), 'same.txt': file('s\n'), 'gone.txt': file('x\n') };
    const after = { 'a.txt': file('1\n3\n'), 'same.txt': file('s\n'), 'new.txt': file('n\n') };
    const d = compareFiles(before, after);
    expect(d).toMatchObject({ changed_files: ['a.txt'], added_files: ['new.txt'], deleted_files: ['gone.txt'] });
    expect(Object.keys(d.diffs).sort()).toEqual(['a.txt', 'gone.txt', 'new.txt']);
    expect(d.diffs['a.txt']).toMatchObject({ additions: 1, deletions: 1 });
    expect(d.diffs['gone.txt']).toMatchObject({ additions: 0, deletions: 1 });
  });

  it('lists binary files without hunks', () => {
    const d = compareFiles({ 'b.bin': file(null, 'one') }, { 'b.bin': file(null, 'two') });
    expect(d.diffs['b.bin']).toEqual({ additions: 0, deletions: 0, hunks: [], binary: true });
  });

  it('reports nothing for identical states', () => {
    expect(compareFiles({ a: file('x') }, { a: file('x') })).toEqual({ changed_files: [], added_files: [], deleted_files: [], diffs: {} });
  });
});
