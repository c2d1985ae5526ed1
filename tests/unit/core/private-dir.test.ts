import { describe, expect, it } from 'vitest';
import { privateDirProblem, type DirFacts } from '../../../src/core/private-dir.js';

const dir = (over: Partial<DirFacts>): DirFacts => ({ isSymbolicLink: false, isDirectory: true, uid: 1000, mode: 0o40700, ...over });

describe('privateDirProblem', () => {
  it.each<[string, DirFacts, number | undefined, RegExp | undefined]>([
    ['own 700 directory', dir({}), 1000, undefined],
    ['no uids on this platform', dir({ uid: undefined }), undefined, undefined],
    ['symlink', dir({ isSymbolicLink: true }), 1000, /symbolic link/],
    ['a file', dir({ isDirectory: false }), 1000, /not a directory/],
    ['another user’s', dir({ uid: 1001 }), 1000, /belongs to another user \(uid 1001, you are uid 1000\)/],
    ['group-readable', dir({ mode: 0o40750 }), 1000, /mode 750; it must be 700/],
    ['world-writable sticky', dir({ mode: 0o41777 }), 1000, /mode 777/],
  ])('%s', (_name, facts, uid, expected) => {
    const problem = privateDirProblem('/tmp/x', facts, uid);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });
});
