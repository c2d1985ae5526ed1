import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync, type BigIntStats } from 'node:fs';
import { statKey } from './index-stats.js';
import { join } from 'node:path';

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
  /** Never changed once stored: a cache replaces its entries rather than editing them. */
  entries: Map<string, CachedStat>;
  trees: Map<string, string>;
}

/** The last cache read or written per file, kept as maps, so a long run neither parses nor rebuilds it each iteration. */
const memory = new Map<string, Remembered>();

function fileMtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

export class StatCache {
  private entries: Map<string, CachedStat>;
  private trees: Map<string, string>;
  private readonly fresh = new Map<string, CachedStat>();

  private constructor(
    private readonly path: string,
    entries: Map<string, CachedStat>,
    trees: Map<string, string>,
  ) {
    this.entries = entries;
    this.trees = new Map(trees);
  }

  static load(dir: string): StatCache {
    const path = join(dir, 'stat-cache.json');
    const mtimeMs = fileMtime(path);
    const known = memory.get(path);
    if (known && known.mtimeMs === mtimeMs) return new StatCache(path, known.entries, known.trees);
    try {
      const parsed: unknown = JSON.parse(readFileSync(path, 'latin1'));
      if (typeof parsed === 'object' && parsed !== null && (parsed as { version?: unknown }).version === 2) {
        const file = parsed as CacheFile;
        const read: Remembered = { mtimeMs, entries: new Map(Object.entries(file.entries)), trees: new Map(Object.entries(file.trees)) };
        memory.set(path, read);
        return new StatCache(path, read.entries, read.trees);
      }
    } catch {
      // Missing or damaged: a cache is only a shortcut, start empty.
    }
    return new StatCache(path, new Map(), new Map());
  }

  /** The cached blob id and st_mode when `key` (see statKey) is what was recorded for `path`. */
  lookup(path: string, key: string): { oid: string; mode: number } | undefined {
    const hit = this.entries.get(path);
    if (!hit || hit[0] !== key) return undefined;
    this.fresh.set(path, hit);
    return { oid: hit[3], mode: hit[2] };
  }

  remember(path: string, st: BigIntStats, oid: string): void {
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

  /** Forgets everything (after git reported a missing object the cache pointed at). */
  clear(): void {
    this.treesChanged = true;
    this.entries = new Map();
    this.trees = new Map();
    this.fresh.clear();
  }

  private unchanged(entries: Map<string, CachedStat>): boolean {
    for (const [key, value] of entries) {
      const old = this.entries.get(key);
      if (!old || old.some((v, i) => v !== value[i])) return false;
    }
    return entries.size === this.entries.size && !this.treesChanged;
  }

  private treesChanged = false;

  /** Writes the entries seen in this capture (others are gone from the tree) atomically; nothing when nothing changed. */
  save(now: number, tmpName: string): void {
    const entries = new Map<string, CachedStat>();
    for (const [key, value] of this.fresh) if (value[1] < now - RACY_MS) entries.set(key, value);
    if (this.unchanged(entries)) return;
    const file: CacheFile = { version: 2, entries: Object.fromEntries(entries), trees: Object.fromEntries(this.trees) };
    try {
      const dir = join(this.path, '..');
      mkdirSync(dir, { recursive: true });
      const tmp = join(dir, tmpName);
      writeFileSync(tmp, JSON.stringify(file), 'latin1');
      renameSync(tmp, this.path);
      memory.set(this.path, { mtimeMs: fileMtime(this.path), entries, trees: new Map(this.trees) });
    } catch {
      // A cache that cannot be written only costs time next run.
    }
  }
}
