import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gitBytes, gitText, keptName, ralphGitDir, type RepoContext } from './git-plumbing.js';
import type { FileEntry } from './repo-state.js';
import type { StatCache } from './stat-cache.js';

/**
 * The tree of a snapshot's files, at their repository paths. Git writes it
 * from a private index file. The index of the last tree is kept for the rest
 * of the run: the next snapshot gives it only the entries that changed, and
 * write-tree reuses every subtree the index still caches, so a commit by the
 * agent costs git what it costs for the user's own index, not a tree of every
 * file written from scratch. The kept file is named after the process, so one
 * that dies leaves nothing the next start does not remove.
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

export async function filesTree(ctx: RepoContext, files: ReadonlyMap<string, FileEntry>, cache: StatCache): Promise<string> {
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
