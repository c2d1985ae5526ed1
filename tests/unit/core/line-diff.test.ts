import { describe, expect, it } from 'vitest';
import { diffLines } from '../../../src/core/line-diff.js';

/** Applies a diff's hunks to `old` to check they describe `new` exactly. */
function applyHunks(oldText: string, hunks: ReturnType<typeof diffLines>['hunks']): string {
  const old = oldText === '' ? [] : oldText.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let cursor = 0;
  for (const h of hunks) {
    const body = h.content
      .split('\n')
      .slice(1)
      .filter((l) => !l.startsWith('\\'));
    const oldStart = h.old_start === 0 ? cursor : h.old_start - 1;
    out.push(...old.slice(cursor, oldStart));
    cursor = oldStart;
    for (const line of body) {
      if (line.startsWith('+')) out.push(line.slice(1));
      else if (line.startsWith('-')) cursor += 1;
      else {
        out.push(line.slice(1));
        cursor += 1;
      }
    }
  }
  out.push(...old.slice(cursor));
  return out.join('\n');
}

function lcs(a: string[], b: string[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i += 1)
    for (let j = 1; j <= b.length; j += 1) dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
  return dp[a.length]![b.length]!;
}

describe('diffLines', () => {
  it.each([
    ['identical', 'a\nb\n', 'a\nb\n', 0, 0, 0],
    ['one line changed', 'a\nb\nc\n', 'a\nB\nc\n', 1, 1, 1],
    ['line added at the end', 'a\n', 'a\nb\n', 1, 0, 1],
    ['everything deleted', 'a\nb\n', '', 0, 2, 1],
    ['new file', '', 'x\ny\n', 2, 0, 1],
    ['missing final newline differs', 'a\nb\n', 'a\nb', 1, 1, 1],
  ])('%s', (_name, a, b, additions, deletions, hunks) => {
    const d = diffLines(a, b);
    expect(d.additions).toBe(additions);
    expect(d.deletions).toBe(deletions);
    expect(d.hunks).toHaveLength(hunks);
    expect(d.exact).toBe(true);
  });

  it('writes unified hunks with line ranges in both files', () => {
    const old = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const next = old.replace('line 10\n', 'line ten\n');
    const [hunk, ...rest] = diffLines(old, next).hunks;
    expect(rest).toHaveLength(0);
    expect(hunk).toMatchObject({ start: 7, end: 13, old_start: 7, old_end: 13 });
    expect(hunk?.content).toBe(['@@ -7,7 +7,7 @@', ' line 7', ' line 8', ' line 9', '-line 10', '+line ten', ' line 11', ' line 12', ' line 13'].join('\n'));
  });

  it('keeps distant changes in separate hunks and near ones together', () => {
    const old = Array.from({ length: 30 }, (_, i) => `l${i}`).join('\n') + '\n';
    const far = old.replace('l2\n', 'X\n').replace('l25\n', 'Y\n');
    expect(diffLines(old, far).hunks).toHaveLength(2);
    const near = old.replace('l2\n', 'X\n').replace('l7\n', 'Y\n');
    expect(diffLines(old, near).hunks).toHaveLength(1);
  });

  it('marks a last line without newline', () => {
    expect(diffLines('a\n', 'a').hunks[0]?.content).toBe('@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file');
  });

  it('finds a minimal script and its hunks rebuild the new text (random cases)', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 200; round += 1) {
      const a = Array.from({ length: rand(12) }, () => 'abcd'[rand(4)] as string);
      const b = Array.from({ length: rand(12) }, () => 'abcd'[rand(4)] as string);
      const oldText = a.length ? `${a.join('\n')}\n` : '';
      const newText = b.length ? `${b.join('\n')}\n` : '';
      const d = diffLines(oldText, newText, { context: rand(3) });
      expect(d.additions + d.deletions).toBe(a.length + b.length - 2 * lcs(a, b));
      expect(applyHunks(oldText, d.hunks)).toBe(b.join('\n'));
    }
  });

  it('falls back to one replacement when the texts are too different', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 3000 }, (_, i) => `b${i}`).join('\n');
    const d = diffLines(a, b);
    expect(d.exact).toBe(false);
    expect(d).toMatchObject({ additions: 3000, deletions: 3000 });
  });
});
