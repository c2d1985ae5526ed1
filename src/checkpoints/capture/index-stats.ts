import type { BigIntStats } from 'node:fs';

/**
 * The stat data git keeps in its index, read straight from the index file
 * (versions 2–4). Checkpoints use it as a shortcut: when `git diff-files`
 * (which checks every tracked file's stat data in C) finds a file clean, and
 * Ralph's own cache recorded that very stat data with the file's raw blob id
 * and permission bits, the file is unchanged and need not be looked at again.
 *
 * The key is "ctime:mtime:inode:size" with nanoseconds, inode and size cut to
 * 32 bits as git stores them.
 */

export function statKey(st: BigIntStats): string {
  const s = (ns: bigint): string => `${ns / 1_000_000_000n}.${ns % 1_000_000_000n}`;
  return `${s(st.ctimeNs)}:${s(st.mtimeNs)}:${st.ino & 0xffffffffn}:${st.size & 0xffffffffn}`;
}

const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const SKIP_WORKTREE = 0x4000;

/**
 * path (binary string, relative to the top) → stat key, for stage-0 entries git
 * really checks (not assume-unchanged or skip-worktree) and, when
 * `ctimeBefore` is given, whose ctime is earlier than that second. Null when
 * the file is not an index this code understands (then no shortcut is taken).
 */
export function readIndexStats(buf: Buffer | null, hashBytes = 20, ctimeBefore = Infinity): Map<string, string> | null {
  if (!buf || buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const out = new Map<string, string>();
  let pos = 12;
  let previous = '';
  for (let i = 0; i < count; i += 1) {
    const start = pos;
    if (pos + 40 + hashBytes + 2 > buf.length) return null;
    const u = (off: number): number => buf.readUInt32BE(pos + off);
    const settled = u(0) < ctimeBefore;
    const key = settled ? `${u(0)}.${u(4)}:${u(8)}.${u(12)}:${u(20)}:${u(36)}` : '';
    const flags = buf.readUInt16BE(pos + 40 + hashBytes);
    pos += 40 + hashBytes + 2;
    let extended = 0;
    if (flags & EXTENDED) {
      if (version < 3) return null;
      extended = buf.readUInt16BE(pos);
      pos += 2;
    }
    let path: string;
    if (version === 4) {
      let strip = 0;
      let byte: number;
      let shift = 0;
      // Git's offset varint: 7 bits a byte, each continuation adds one before shifting.
      do {
        byte = buf[pos++] as number;
        strip = shift === 0 ? byte & 0x7f : ((strip + 1) << 7) | (byte & 0x7f);
        shift += 7;
      } while (byte & 0x80);
      const end = buf.indexOf(0, pos);
      if (end === -1) return null;
      path = previous.slice(0, previous.length - strip) + buf.toString('latin1', pos, end);
      pos = end + 1;
    } else {
      const end = buf.indexOf(0, pos);
      if (end === -1) return null;
      path = buf.toString('latin1', pos, end);
      // Entries are padded with 1–8 NULs to a multiple of 8 bytes.
      pos = start + Math.floor((end - start + 8) / 8) * 8;
    }
    previous = path;
    const stage = (flags >> 12) & 0x3;
    if (settled && stage === 0 && !(flags & ASSUME_VALID) && !(extended & SKIP_WORKTREE)) out.set(path, key);
  }
  return out;
}

/** The last index read per path, with what it said; an index usually stays the same bytes between iterations. */
// Cache: the stats of the last index read per index path; the same answer for any loop, as it is
// compared byte for byte (and ctime) with the index read now; replaced at the next read that differs.
const lastRead = new Map<string, { buf: Buffer; ctimeBefore: number; stats: ReadonlyMap<string, string> | null }>();

/** readIndexStats of the index at `indexPath` (its bytes `buf`), kept while they and `ctimeBefore` stay the same. Never changed by its users. */
export function readIndexStatsOf(indexPath: string, buf: Buffer | null, ctimeBefore: number): ReadonlyMap<string, string> | null {
  if (!buf) return null;
  const last = lastRead.get(indexPath);
  if (last && last.ctimeBefore === ctimeBefore && last.buf.equals(buf)) return last.stats;
  const stats = readIndexStats(buf, 20, ctimeBefore);
  lastRead.set(indexPath, { buf, ctimeBefore, stats });
  return stats;
}
