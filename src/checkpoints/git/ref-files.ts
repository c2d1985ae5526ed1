import { existsSync, lstatSync, readdirSync, readFileSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';

/**
 * The files git keeps refs in: `packed-refs` and one file per loose ref under
 * `refs/` (a linked worktree keeps its own refs under its git dir). Git
 * replaces a ref's file by renaming a new one over it, so a ref that changed
 * has a file with a new change time. Their stat data tells whether the refs
 * can have changed since they were last listed, without asking git.
 *
 * Only files changed well before now are vouched for: a file rewritten within
 * the same timestamp tick could otherwise look untouched.
 */

const RACY_MS = 2_000;
const RALPH_DIR = 'ralph';

function lstatBig(path: Buffer): BigIntStats | null {
  try {
    return lstatSync(path, { bigint: true });
  } catch {
    return null;
  }
}

function namesIn(dir: Buffer): Buffer[] {
  try {
    return readdirSync(dir, { encoding: 'buffer' });
  } catch {
    return [];
  }
}

function child(dir: Buffer, name: Buffer): Buffer {
  return Buffer.concat([dir, Buffer.from('/'), name]);
}

/** Adds `label:ino:size:mtime:ctime` for `path` and every file below it; false when one cannot be vouched for. */
function describe(path: Buffer, label: string, settledBefore: bigint, out: string[], skipTop?: string): boolean {
  const st = lstatBig(path);
  if (!st) {
    out.push(`${label}:-`);
    return true;
  }
  // A link's own stat data says nothing of what changes where it points.
  if (st.isSymbolicLink()) return false;
  if (st.isDirectory()) {
    const names = namesIn(path).sort(Buffer.compare);
    for (const name of names) {
      const text = name.toString('latin1');
      if (text === skipTop) continue;
      if (!describe(child(path, name), `${label}/${text}`, settledBefore, out)) return false;
    }
    return true;
  }
  if (st.mtimeNs >= settledBefore || st.ctimeNs >= settledBefore) return false;
  out.push(`${label}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`);
  return true;
}

/**
 * A fingerprint of every file that holds a ref outside Ralph's own refs/ralph/,
 * or null when one changed less than a moment before `now` (epoch ms), one is
 * a symbolic link, or the repository keeps its refs in a format whose files
 * say nothing (reftable).
 */
export function refFilesFingerprint(commonDir: string, gitDir: string, now: number): string | null {
  if (existsSync(join(commonDir, 'reftable'))) return null;
  const settledBefore = BigInt(Math.floor(now - RACY_MS)) * 1_000_000n;
  const out: string[] = [];
  const places: [string, string][] = [
    [join(commonDir, 'packed-refs'), 'packed-refs'],
    [join(commonDir, 'refs'), 'refs'],
  ];
  if (gitDir !== commonDir) places.push([join(gitDir, 'refs'), 'worktree-refs']);
  for (const [path, label] of places) if (!describe(Buffer.from(path), label, settledBefore, out, RALPH_DIR)) return null;
  return out.join('\n');
}

/** The names of the loose refs under refs/ralph/ (packed ones are not seen). */
export function looseRalphRefs(commonDir: string): string[] {
  const names: string[] = [];
  const walk = (dir: Buffer, name: string): void => {
    const st = lstatBig(dir);
    if (!st) return;
    if (!st.isDirectory()) {
      names.push(name);
      return;
    }
    for (const entry of namesIn(dir)) walk(child(dir, entry), `${name}/${entry.toString('latin1')}`);
  };
  walk(Buffer.from(join(commonDir, 'refs', RALPH_DIR)), `refs/${RALPH_DIR}`);
  return names;
}

/**
 * How many refs under `prefix` (inside refs/ralph/) there are at most, told
 * by the ref files (Ralph's are loose until something packs them), or
 * undefined when only git can tell: refs kept in another format, or some of
 * them among the packed ones. A lock file next to a ref counts too: an answer
 * too high only sends the question to git.
 */
export function refsAtMost(commonDir: string, prefix: string): number | undefined {
  if (existsSync(join(commonDir, 'reftable'))) return undefined;
  let packed = '';
  try {
    packed = readFileSync(join(commonDir, 'packed-refs'), 'latin1');
  } catch {
    // No packed refs.
  }
  if (packed.includes(prefix)) return undefined;
  return looseRalphRefs(commonDir).filter((name) => name.startsWith(prefix)).length;
}
