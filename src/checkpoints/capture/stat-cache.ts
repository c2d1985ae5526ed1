import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync, type BigIntStats } from 'node:fs';
import { statKey } from './index-stats.js';
import { join } from 'node:path';
import type { FileEntry } from './repo-state.js';

/**
 * Ralph's own stat cache for checkpoints: path → (stat data, blob id of the raw
 * bytes). Git's index cannot serve here: the blobs it holds went through
 * line-ending conversion and clean filters, and checkpoints need the bytes as
 * they are on disk. With the cache only files whose stat data changed are read
 * and hashed again, which keeps a checkpoint of a large tree fast.
 *
 * An entry is trusted only when its file was last modified well before the
 * cache was written: a file rewritten within the same timestamp tick, with the
 * same size, would otherwise look unchanged ("racy" entries are hashed again).
 */

type CachedStat = [key: string, mtimeMs: number, mode: number, oid: string];

interface CacheFile {
  version: 2;
  entries: Record<string, CachedStat>;
  trees: Record<string, string>;
}

const RACY_MS = 2_000;
const MAX_TREES = 64;

interface Remembered {
  mtimeMs: number;
  /** The newest file modification time among the entries. */
  newestMs: number;
  /** Never changed once stored: a cache replaces its entries rather than editing them. */
  entries: Map<string, CachedStat>;
  trees: Map<string, string>;
}

/** The last cache read or written per file, kept as maps, so a long run neither parses nor rebuilds it each iteration. */
// Cache: the stat cache file per path as last read or written; shared safely as it is used only while
// the file keeps its mtime; replaced at each read or write.
const memory = new Map<string, Remembered>();

/** The objects a snapshot wrote for a files map: its tree and the blob listing the permission bits. */
export interface FilesObjects {
  tree: string;
  perms: string;
}

/**
 * What the last snapshot of this process wrote, per cache. Between iterations
 * the files and the index usually stay as they were; comparing them entry by
 * entry with the last ones is far cheaper than building, sorting and digesting
 * the text git would be given. Captured maps and lists are never changed
 * afterwards, so holding them is enough.
 */
interface LastWritten {
  files?: { prefix: string; files: ReadonlyMap<string, FileEntry>; objects: FilesObjects };
  indexTree?: { index: Buffer; tree: string | null };
  /** Blob contents by their name in the data tree (the raw index is the large one). */
  blobs?: ReadonlyMap<string, { content: Buffer; oid: string }>;
}
// Cache: what the last snapshot wrote per stat cache file; reused only where the new maps equal the
// old ones entry by entry, so any loop may share it; replaced by each snapshot.
const lastWritten = new Map<string, LastWritten>();

function sameFiles(a: ReadonlyMap<string, FileEntry>, b: ReadonlyMap<string, FileEntry>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [path, entry] of b) {
    const old = a.get(path);
    if (!old || old.oid !== entry.oid || old.mode !== entry.mode || old.perm !== entry.perm) return false;
  }
  return true;
}

function newestOf(entries: ReadonlyMap<string, CachedStat>): number {
  let newest = -Infinity;
  for (const value of entries.values()) if (value[1] > newest) newest = value[1];
  return newest;
}

function fileMtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

export class StatCache {
  private entries: Map<string, CachedStat>;
  private newestMs: number;
  private trees: Map<string, string>;
  private readonly fresh = new Map<string, CachedStat>();
  /** True once an entry was recorded rather than found as it was. */
  private remembered = false;

  private constructor(
    private readonly path: string,
    loaded: Pick<Remembered, 'entries' | 'trees' | 'newestMs'>,
  ) {
    this.entries = loaded.entries;
    this.newestMs = loaded.newestMs;
    this.trees = new Map(loaded.trees);
  }

  static load(dir: string): StatCache {
    const path = join(dir, 'stat-cache.json');
    const mtimeMs = fileMtime(path);
    const known = memory.get(path);
    if (known && known.mtimeMs === mtimeMs) return new StatCache(path, known);
    try {
      const parsed: unknown = JSON.parse(readFileSync(path, 'latin1'));
      if (typeof parsed === 'object' && parsed !== null && (parsed as { version?: unknown }).version === 2) {
        const file = parsed as CacheFile;
        const entries = new Map(Object.entries(file.entries));
        const read: Remembered = { mtimeMs, newestMs: newestOf(entries), entries, trees: new Map(Object.entries(file.trees)) };
        memory.set(path, read);
        return new StatCache(path, read);
      }
    } catch {
      // Missing or damaged: a cache is only a shortcut, start empty.
    }
    return new StatCache(path, { entries: new Map(), trees: new Map(), newestMs: -Infinity });
  }

  /** The cached blob id and st_mode when `key` (see statKey) is what was recorded for `path`. */
  lookup(path: string, key: string): { oid: string; mode: number } | undefined {
    const hit = this.entries.get(path);
    if (!hit || hit[0] !== key) return undefined;
    this.fresh.set(path, hit);
    return { oid: hit[3], mode: hit[2] };
  }

  remember(path: string, st: BigIntStats, oid: string): void {
    this.remembered = true;
    this.fresh.set(path, [statKey(st), Number(st.mtimeMs), Number(st.mode), oid]);
  }

  tree(inputDigest: string): string | undefined {
    return this.trees.get(inputDigest);
  }

  rememberTree(inputDigest: string, oid: string): void {
    if (this.trees.get(inputDigest) === oid) return;
    this.treesChanged = true;
    this.trees.delete(inputDigest);
    this.trees.set(inputDigest, oid);
    while (this.trees.size > MAX_TREES) this.trees.delete(this.trees.keys().next().value as string);
  }

  /** The tree and permission listing the last snapshot of this process wrote, when `files` holds the very same entries. */
  writtenFiles(prefix: string, files: ReadonlyMap<string, FileEntry>): FilesObjects | undefined {
    const last = lastWritten.get(this.path)?.files;
    return last && last.prefix === prefix && sameFiles(last.files, files) ? last.objects : undefined;
  }

  rememberWrittenFiles(prefix: string, files: ReadonlyMap<string, FileEntry>, objects: FilesObjects): void {
    lastWritten.set(this.path, { ...lastWritten.get(this.path), files: { prefix, files, objects } });
  }

  /** The tree the last snapshot of this process wrote to keep the index's blobs (null: none was needed), when `index` holds the same bytes. */
  writtenIndexTree(index: Buffer): string | null | undefined {
    const last = lastWritten.get(this.path)?.indexTree;
    return last && last.index.equals(index) ? last.tree : undefined;
  }

  rememberWrittenIndexTree(index: Buffer, tree: string | null): void {
    lastWritten.set(this.path, { ...lastWritten.get(this.path), indexTree: { index, tree } });
  }

  /** The blob id of `content` when the last snapshot of this process wrote the same bytes under `name`. */
  writtenBlob(name: string, content: Buffer): string | undefined {
    const last = lastWritten.get(this.path)?.blobs?.get(name);
    return last && last.content.equals(content) ? last.oid : undefined;
  }

  rememberWrittenBlobs(blobs: ReadonlyMap<string, { content: Buffer; oid: string }>): void {
    lastWritten.set(this.path, { ...lastWritten.get(this.path), blobs });
  }

  /** Forgets everything (after git reported a missing object the cache pointed at). */
  clear(): void {
    lastWritten.delete(this.path);
    this.treesChanged = true;
    this.entries = new Map();
    this.newestMs = -Infinity;
    this.trees = new Map();
    this.fresh.clear();
  }

  /** The entries this capture would keep are exactly the ones loaded: one pass, nothing built. */
  private unchanged(racyFrom: number): boolean {
    if (this.treesChanged) return false;
    // Every entry found as it was, all of them settled: nothing to compare one by one.
    if (!this.remembered && this.fresh.size === this.entries.size && this.newestMs < racyFrom) return true;
    let kept = 0;
    for (const [path, value] of this.fresh) {
      if (value[1] >= racyFrom) continue;
      kept += 1;
      const old = this.entries.get(path);
      if (old === value) continue;
      if (!old || old[0] !== value[0] || old[1] !== value[1] || old[2] !== value[2] || old[3] !== value[3]) return false;
    }
    return kept === this.entries.size;
  }

  private treesChanged = false;

  /** Writes the entries seen in this capture (others are gone from the tree) atomically; nothing when nothing changed. */
  save(now: number, tmpName: string): void {
    if (this.unchanged(now - RACY_MS)) return;
    const entries = new Map<string, CachedStat>();
    for (const [key, value] of this.fresh) if (value[1] < now - RACY_MS) entries.set(key, value);
    const file: CacheFile = { version: 2, entries: Object.fromEntries(entries), trees: Object.fromEntries(this.trees) };
    try {
      const dir = join(this.path, '..');
      mkdirSync(dir, { recursive: true });
      const tmp = join(dir, tmpName);
      writeFileSync(tmp, JSON.stringify(file), 'latin1');
      renameSync(tmp, this.path);
      memory.set(this.path, { mtimeMs: fileMtime(this.path), newestMs: newestOf(entries), entries, trees: new Map(this.trees) });
    } catch {
      // A cache that cannot be written only costs time next run.
    }
  }
}
