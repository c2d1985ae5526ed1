import { describe, expect, it } from 'vitest';
import { parseGitStatus } from '../../../src/core/git-status.js';

const OID = 'a'.repeat(40);

describe('parseGitStatus', () => {
  it.each([
    ['an unborn branch has no head', '# branch.oid (initial)\0# branch.head main\0', { entries: [] }],
    [
      'head and an unstaged change',
      `# branch.oid ${OID}\0# branch.head main\x001 .M N... 100644 100644 100644 ${OID} ${OID} src/a b.ts\0`,
      { head: OID, entries: [{ path: 'src/a b.ts', code: '.M' }] },
    ],
    [
      'untracked and ignored',
      '? new.txt\0! build/out.js\0',
      {
        entries: [
          { path: 'new.txt', code: '?' },
          { path: 'build/out.js', code: '!' },
        ],
      },
    ],
    [
      'a rename reports both paths',
      `2 R. N... 100644 100644 100644 ${OID} ${OID} R100 new name.ts\0old.ts\0`,
      {
        entries: [
          { path: 'new name.ts', code: 'R.' },
          { path: 'old.ts', code: 'renamed-from' },
        ],
      },
    ],
    ['a conflict', `u UU N... 100644 100644 100644 100644 ${OID} ${OID} ${OID} c.ts\0`, { entries: [{ path: 'c.ts', code: 'UU' }] }],
    ['empty output', '', { entries: [] }],
  ])('%s', (_name, output, expected) => {
    expect(parseGitStatus(output)).toEqual(expected);
  });
});
