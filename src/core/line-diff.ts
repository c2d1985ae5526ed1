/**
 * Line-level differences between two texts (for test_diff): counts of
 * added and removed lines and unified-diff hunks with context. Myers'
 * O((N+M)·D) algorithm after trimming the common head and tail; when the
 * texts differ in more than MAX_EDIT_DISTANCE lines the middle is reported as
 * one replacement (`exact: false`) instead of spending unbounded time.
 */

export interface DiffHunk {
  /** First and last line of the hunk in the new text (1-based; 0 when the new side is empty). */
  start: number;
  end: number;
  /** The same range in the old text. */
  old_start: number;
  old_end: number;
  /** Unified-diff text: `@@ -a,b +c,d @@` then lines prefixed with ' ', '-' or '+'. */
  content: string;
}

export interface LineDiff {
  additions: number;
  deletions: number;
  hunks: DiffHunk[];
  /** False when the texts were too different for a minimal diff (the middle is one replacement). */
  exact: boolean;
}

export interface DiffOptions {
  /** Unchanged lines shown around each change (default 3). */
  context?: number;
}

export const MAX_EDIT_DISTANCE = 2000;
const NO_EOL = '\\ No newline at end of file';

type Op = { kind: ' ' | '-' | '+'; text: string; oldLine: number; newLine: number };

/** Lines of a text; the last one remembers whether a newline ended it. */
function splitLines(text: string): { lines: string[]; keys: string[] } {
  if (text === '') return { lines: [], keys: [] };
  const lines = text.split('\n');
  const endsWithNewline = lines[lines.length - 1] === '';
  if (endsWithNewline) lines.pop();
  const keys = [...lines];
  // "a" and "a\n" differ; give the unterminated last line its own key.
  if (!endsWithNewline) keys[keys.length - 1] = `${keys[keys.length - 1] ?? ''}\u0000no-eol`;
  return { lines, keys };
}

/** Myers' shortest edit script between a and b as a list of ops; undefined past maxD. */
function myers(a: readonly string[], b: readonly string[], maxD: number): Array<' ' | '-' | '+'> | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxD);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d += 1) {
    // Only diagonals -d-1..d+1 of the previous round are read again when backtracking.
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, k, n, m, a, b);
    }
    v = next;
  }
  return undefined;
}

function backtrack(trace: Int32Array[], dEnd: number, kEnd: number, n: number, m: number, a: readonly string[], b: readonly string[]): Array<' ' | '-' | '+'> {
  const ops: Array<' ' | '-' | '+'> = [];
  let x = n;
  let y = m;
  let k = kEnd;
  for (let d = dEnd; d > 0; d -= 1) {
    const v = trace[d] as Int32Array;
    const at = (diagonal: number): number => v[diagonal + d + 1] ?? 0;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY && x > 0 && y > 0 && a[x - 1] === b[y - 1]) {
      ops.push(' ');
      x -= 1;
      y -= 1;
    }
    ops.push(down ? '+' : '-');
    x = prevX;
    y = prevY;
    k = prevK;
  }
  while (x > 0 && y > 0) {
    ops.push(' ');
    x -= 1;
    y -= 1;
  }
  return ops.reverse();
}

function buildOps(oldText: string, newText: string): { ops: Op[]; exact: boolean; oldNoEol: boolean; newNoEol: boolean } {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let head = 0;
  while (head < a.keys.length && head < b.keys.length && a.keys[head] === b.keys[head]) head += 1;
  let tail = 0;
  while (tail < a.keys.length - head && tail < b.keys.length - head && a.keys[a.keys.length - 1 - tail] === b.keys[b.keys.length - 1 - tail]) tail += 1;
  const midA = a.keys.slice(head, a.keys.length - tail);
  const midB = b.keys.slice(head, b.keys.length - tail);
  let middle = myers(midA, midB, MAX_EDIT_DISTANCE);
  const exact = middle !== undefined;
  middle ??= [...midA.map(() => '-' as const), ...midB.map(() => '+' as const)];
  const kinds: Array<' ' | '-' | '+'> = [...Array<' '>(head).fill(' '), ...middle, ...Array<' '>(tail).fill(' ')];
  const ops: Op[] = [];
  let oi = 0;
  let ni = 0;
  for (const kind of kinds) {
    if (kind === ' ') {
      ops.push({ kind, text: a.lines[oi] ?? '', oldLine: oi + 1, newLine: ni + 1 });
      oi += 1;
      ni += 1;
    } else if (kind === '-') {
      ops.push({ kind, text: a.lines[oi] ?? '', oldLine: oi + 1, newLine: ni });
      oi += 1;
    } else {
      ops.push({ kind, text: b.lines[ni] ?? '', oldLine: oi, newLine: ni + 1 });
      ni += 1;
    }
  }
  const oldNoEol = a.keys.length > 0 && !oldText.endsWith('\n');
  const newNoEol = b.keys.length > 0 && !newText.endsWith('\n');
  return { ops, exact, oldNoEol, newNoEol };
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

/** Differences between two texts, line by line. */
export function diffLines(oldText: string, newText: string, options: DiffOptions = {}): LineDiff {
  const context = Math.max(0, Math.floor(options.context ?? 3));
  const { ops, exact, oldNoEol, newNoEol } = buildOps(oldText, newText);
  const oldCount = ops.filter((o) => o.kind !== '+').length;
  const newCount = ops.filter((o) => o.kind !== '-').length;
  const changed = ops.map((o, i) => (o.kind === ' ' ? -1 : i)).filter((i) => i >= 0);
  const hunks: DiffHunk[] = [];
  let i = 0;
  while (i < changed.length) {
    const first = changed[i] as number;
    let lastChange = first;
    // Changes closer than two contexts apart share a hunk.
    while (i + 1 < changed.length && (changed[i + 1] as number) - lastChange <= 2 * context + 1) {
      i += 1;
      lastChange = changed[i] as number;
    }
    i += 1;
    const from = Math.max(0, first - context);
    const to = Math.min(ops.length - 1, lastChange + context);
    const slice = ops.slice(from, to + 1);
    const oldLines = slice.filter((o) => o.kind !== '+');
    const newLines = slice.filter((o) => o.kind !== '-');
    const oldStart = oldLines[0]?.oldLine ?? slice[0]?.oldLine ?? 0;
    const newStart = newLines[0]?.newLine ?? slice[0]?.newLine ?? 0;
    const body = slice.map((o) => {
      const line = `${o.kind}${o.text}`;
      const endsOld = o.kind !== '+' && oldNoEol && o.oldLine === oldCount;
      const endsNew = o.kind !== '-' && newNoEol && o.newLine === newCount;
      return endsOld || endsNew ? `${line}\n${NO_EOL}` : line;
    });
    hunks.push({
      start: newLines.length > 0 ? newStart : 0,
      end: newLines.length > 0 ? newStart + newLines.length - 1 : 0,
      old_start: oldLines.length > 0 ? oldStart : 0,
      old_end: oldLines.length > 0 ? oldStart + oldLines.length - 1 : 0,
      content: [`@@ -${range(oldStart, oldLines.length)} +${range(newStart, newLines.length)} @@`, ...body].join('\n'),
    });
  }
  return {
    additions: ops.filter((o) => o.kind === '+').length,
    deletions: ops.filter((o) => o.kind === '-').length,
    hunks,
    exact,
  };
}
