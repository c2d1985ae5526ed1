import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gitBytes, gitText, keptName, ralphGitDir, type RepoContext } from '../git/git-plumbing.js';
import { looseObjectStore, type LooseObjectStore } from '../git/loose-objects.js';
import type { FileEntry } from '../capture/repo-state.js';
import type { StatCache } from '../capture/stat-cache.js';
import { TreeWriter } from './tree-writer.js';

/**
 * The tree of a snapshot's files, at their repository paths. Git writes it
 * from a private index file. The index of the last tree is kept for the rest
 * of the run: the next snapshot gives it only the entries that changed, and
 * write-tree reuses every subtree the index still caches, so a commit by the
 * agent costs git what it costs for the user's own index, not a tree of every
 * file written from scratch. The kept file is named after the process, so one
 * that dies leaves nothing the next start does not remove.
 *
 * Where Ralph may write the repository's objects itself (loose-objects.ts),
 * it writes the trees too, the same way: only those of directories where
 * something changed. Git's write-tree refuses a file whose content is not
 * stored; so does this, for every content the index does not hold already.
 */

function entryLine(mode: string, oid: string, path: string): string {
  return `${mode} ${oid}\t${path}\0`;
}

/** index-info lines that turn `before` into `after`: removals first (mode 0), then what is new or changed. */
function changedLines(before: ReadonlyMap<string, FileEntry>, after: ReadonlyMap<string, FileEntry>, prefix: string): string[] {
  const lines: string[] = [];
  for (const [path, entry] of before) if (!after.has(path)) lines.push(entryLine('0', entry.oid.replace(/./g, '0'), prefix + path));
  for (const [path, entry] of after) {
    const old = before.get(path);
    if (!old || old.mode !== entry.mode || old.oid !== entry.oid) lines.push(entryLine(entry.mode, entry.oid, prefix + path));
  }
  return lines;
}

async function writeTree(ctx: RepoContext, indexFile: string, lines: readonly string[]): Promise<string> {
  const env = { GIT_INDEX_FILE: indexFile };
  if (lines.length > 0) await gitBytes(['update-index', '-z', '--index-info'], { cwd: ctx.root, input: Buffer.from(lines.join(''), 'latin1'), env });
  const tree = (await gitText(['write-tree'], { cwd: ctx.root, env })).trim();
  if (!tree) throw new Error('git write-tree gave no tree');
  return tree;
}

function remove(indexFile: string): void {
  rmSync(indexFile, { force: true });
  rmSync(`${indexFile}.lock`, { force: true });
}

/** The tree writer of each project this process snapshots, with the directories of its last tree. */
const writers = new Map<string, TreeWriter>();

/** Throws (as git would, naming the object missing) when a file's content is stored neither by the index nor as a loose object. */
function checkContents(store: LooseObjectStore, files: ReadonlyMap<string, FileEntry>, indexObjects: ReadonlySet<string>): void {
  for (const [path, entry] of files) {
    if (entry.mode === '160000' || indexObjects.has(entry.oid) || store.has(entry.oid)) continue;
    throw new Error(`missing object ${entry.oid} for ${path}`);
  }
}

function writtenByRalph(ctx: RepoContext, store: LooseObjectStore, files: ReadonlyMap<string, FileEntry>, indexObjects: ReadonlySet<string>): string {
  checkContents(store, files, indexObjects);
  const key = `${ctx.commonDir}\0${ctx.prefix}`;
  let writer = writers.get(key);
  if (!writer) {
    writer = new TreeWriter(store, Buffer.from(ctx.prefix, 'utf8').toString('latin1'));
    writers.set(key, writer);
  }
  try {
    return writer.write(files);
  } catch (error) {
    // What it keeps is unknown after a failure: the next snapshot starts from nothing.
    writers.delete(key);
    throw error;
  }
}

export async function filesTree(ctx: RepoContext, files: ReadonlyMap<string, FileEntry>, cache: StatCache, indexObjects: ReadonlySet<string>): Promise<string> {
  const store = looseObjectStore(ctx);
  if (store) return writtenByRalph(ctx, store, files, indexObjects);
  const prefix = Buffer.from(ctx.prefix, 'utf8').toString('latin1');
  const kept = cache.keptFilesIndex(ctx.prefix);
  if (kept) {
    try {
      const tree = await writeTree(ctx, kept.file, changedLines(kept.files, files, prefix));
      cache.keepFilesIndex(ctx.prefix, kept.file, files);
      return tree;
    } catch {
      // Whatever the kept index holds now is unknown: start from an empty one.
      cache.forgetFilesIndex();
    }
  }
  const lines: string[] = [];
  for (const [path, entry] of files) lines.push(entryLine(entry.mode, entry.oid, prefix + path));
  lines.sort();
  const digest = createHash('sha1')
    .update(Buffer.from(lines.join(''), 'latin1'))
    .digest('hex');
  const known = cache.tree(digest);
  if (known) return known;
  const dir = ralphGitDir(ctx);
  mkdirSync(dir, { recursive: true });
  const indexFile = join(dir, keptName('files-index'));
  try {
    const tree = await writeTree(ctx, indexFile, lines);
    cache.rememberTree(digest, tree);
    cache.keepFilesIndex(ctx.prefix, indexFile, files);
    return tree;
  } catch (error) {
    remove(indexFile);
    throw error;
  }
}
