import { describe, expect, it } from 'vitest';
import { parseTrackedListing } from '../../../src/checkpoints/capture/tracked-listing.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const S = 'c'.repeat(40);

function listing(...entries: string[]): Buffer {
  return Buffer.from(entries.map((e) => `${e}\0`).join(''), 'latin1');
}

/** What `git ls-files -z -t -s --cached -o --directory` says, read once per distinct listing. */
describe('parseTrackedListing', () => {
  const bytes = listing(
    '? notes/',
    '? new.txt',
    `H 100644 ${A} 0\tsrc/a.ts`,
    `H 100755 ${B} 0\trun.sh`,
    `S 100644 ${A} 0\tsrc/copy-of-a.ts`,
    `H 160000 ${S} 0\tvendor/lib`,
    `H 100644 ${B} 0\t.ralph/status.json`,
    `H 100644 ${A} 0\tcaf\xc3\xa9.md`,
    `M 100644 ${A} 1\tconflict.txt`,
    `M 100644 ${B} 2\tconflict.txt`,
  );

  it('splits tracked files, submodules and untracked entries; Ralph state is left out but its blob kept', () => {
    const parsed = parseTrackedListing('/project-one', '', bytes);
    expect(parsed.tracked).toEqual(['src/a.ts', 'run.sh', 'src/copy-of-a.ts', 'caf\xc3\xa9.md', 'conflict.txt']);
    expect([...parsed.trackedSet]).toEqual(parsed.tracked);
    expect([...parsed.gitlinks]).toEqual([['vendor/lib', S]]);
    expect(parsed.untracked).toEqual(['notes/', 'new.txt']);
    expect(parsed.indexObjects).toEqual([A, B]);
    expect(parsed.indexView).toBe('');
  });

  it('gives back the same answer for the same bytes, and reads changed bytes again', () => {
    const first = parseTrackedListing('/project-two', 'sub/', bytes);
    expect(parseTrackedListing('/project-two', 'sub/', Buffer.from(bytes))).toBe(first);
    const changed = parseTrackedListing('/project-two', 'sub/', listing(`H 100644 ${B} 0\tsrc/a.ts`));
    expect(changed).not.toBe(first);
    expect(changed.tracked).toEqual(['src/a.ts']);
    expect(changed.indexView).not.toBe(first.indexView);
  });
});
