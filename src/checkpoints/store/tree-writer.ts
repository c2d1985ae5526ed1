import type { FileEntry } from '../capture/repo-state.js';
import type { GitObjectWriter } from '../git/object-writer.js';

/**
 * The tree objects of a snapshot's files, handed to git's mktree. Directories
 * are kept between snapshots with their entries and tree ids, so the next
 * snapshot writes only the trees of the directories where something changed
 * (and their parents up to the top), as git's cached index trees would let
 * write-tree do. Git checks every entry of a tree it writes; a kept id whose
 * object was pruned since makes it refuse, and the snapshot then starts over
 * with a new TreeWriter (a top tree that is still stored keeps everything
 * below it: git prunes nothing reachable from a recent object).
 */

const DIR_MODE = '40000';

interface Entry {
  mode: string;
  oid: string;
}

function parentOf(dir: string): string {
  const slash = dir.lastIndexOf('/');
  return slash === -1 ? '' : dir.slice(0, slash);
}

function nameIn(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function depthOf(dir: string): number {
  if (dir === '') return -1;
  let depth = 0;
  for (let i = dir.indexOf('/'); i !== -1; i = dir.indexOf('/', i + 1)) depth += 1;
  return depth;
}

export class TreeWriter {
  /** Directory ('' is the top) → its entries by name; a subdirectory's entry holds its last tree id. */
  private readonly dirs = new Map<string, Map<string, Entry>>([['', new Map()]]);
  private readonly dirty = new Set<string>();
  private files: ReadonlyMap<string, FileEntry> = new Map();
  private top = '';

  constructor(
    /** The project's place in the repository ('' or ending in '/'), as a binary string. */
    private readonly prefix: string,
  ) {}

  private markDirty(dir: string): void {
    for (let d = dir; ; d = parentOf(d)) {
      if (this.dirty.has(d) && d !== dir) return;
      this.dirty.add(d);
      if (d === '') return;
    }
  }

  private ensureDir(dir: string): Map<string, Entry> {
    let entries = this.dirs.get(dir);
    if (entries) return entries;
    entries = new Map();
    this.dirs.set(dir, entries);
    const parent = this.ensureDir(parentOf(dir));
    const name = nameIn(dir);
    if (parent.get(name)?.mode !== DIR_MODE) parent.set(name, { mode: DIR_MODE, oid: '' });
    this.markDirty(dir);
    return entries;
  }

  private remove(path: string): void {
    const full = this.prefix + path;
    const dir = parentOf(full);
    this.dirs.get(dir)?.delete(nameIn(full));
    this.markDirty(dir);
  }

  private add(path: string, entry: FileEntry): void {
    const full = this.prefix + path;
    const dir = parentOf(full);
    const name = nameIn(full);
    // A directory of that name whose files went with the removals becomes empty and is dropped below.
    this.ensureDir(dir).set(name, { mode: entry.mode, oid: entry.oid });
    this.markDirty(dir);
  }

  /** Brings the kept directories to `files` (binary paths relative to the project) and writes what changed; returns the top tree's id. */
  async write(objects: GitObjectWriter, files: ReadonlyMap<string, FileEntry>): Promise<string> {
    const before = this.files;
    // Removals first: a file may take the name of a directory that went, and the other way round.
    for (const path of before.keys()) if (!files.has(path)) this.remove(path);
    for (const [path, entry] of files) {
      const old = before.get(path);
      if (!old || old.mode !== entry.mode || old.oid !== entry.oid) this.add(path, entry);
    }
    this.files = files;
    if (this.top === '') this.markDirty('');
    for (const dir of [...this.dirty].sort((a, b) => depthOf(b) - depthOf(a))) await this.writeDir(objects, dir);
    this.dirty.clear();
    return this.top;
  }

  private async writeDir(objects: GitObjectWriter, dir: string): Promise<void> {
    const entries = this.dirs.get(dir);
    if (!entries) return;
    const parent = dir === '' ? undefined : this.dirs.get(parentOf(dir));
    if (entries.size === 0 && dir !== '') {
      // Git keeps no empty trees below the top: the directory goes (unless a file took its name).
      this.dirs.delete(dir);
      if (parent?.get(nameIn(dir))?.mode === DIR_MODE) parent.delete(nameIn(dir));
      return;
    }
    const oid = await objects.writeTree([...entries].map(([name, e]) => ({ name, mode: e.mode, oid: e.oid })));
    if (dir === '') this.top = oid;
    else parent?.set(nameIn(dir), { mode: DIR_MODE, oid });
  }
}
