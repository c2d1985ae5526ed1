import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesTree } from './files-tree.js';
import { binary, gitBytes, gitText, ralphGitDir, runGit, splitZ, tempName, worktreeName, type RepoContext } from '../git/git-plumbing.js';
import { objectWriter, type TreeEntry } from '../git/object-writer.js';
import type { FileEntry, OpFile, RefEntry, RepoState, SubRepo } from '../capture/repo-state.js';
import type { StatCache } from '../capture/stat-cache.js';

/**
 * A RepoState as git objects, and back. The snapshot commit's tree holds the
 * project's files at their repository paths (so `git restore --source=<ref> --
 * <path>` and `git show <ref>:<path>` work on it); its first parent is a data
 * commit whose tree holds what a tree cannot: exact permission bits, empty
 * directories, the raw index, HEAD, refs, the stash reflog and operation
 * state. The other parents are every commit a ref or stash entry pointed at,
 * which keeps them reachable however the agent moves or deletes refs.
 */

export const SNAPSHOT_DATA_VERSION = 2;

/** The trailer naming the linked worktree a snapshot was taken in (none in the main worktree). */
export const WORKTREE_TRAILER = 'Ralph-Worktree';
/** The trailer naming the project's folder in its repository (`.` at the top). */
export const PREFIX_TRAILER = 'Ralph-Prefix';

export interface SnapshotInfo {
  kind: 'checkpoint' | 'attempt';
  id: string;
  loop: number;
  createdAt: string;
  /** First line of the commit message. */
  subject: string;
  /** Extra lines for the commit message body. */
  body?: string[];
}

interface DataFile {
  version: number;
  prefix: string;
  head: string;
  refs: RefEntry[] | null;
  refsComplete: boolean;
  hasIndex: boolean;
  indexView?: string;
  hasStash: boolean;
  recordsEmptyDirs: boolean;
  nested: { path: string; head: string | null }[];
  submodules: { path: string; head: string | null }[];
  opState: { path: string; perm: number; content: string | null }[] | null;
}

function sha1(data: Buffer | string): string {
  return createHash('sha1').update(data).digest('hex');
}

function b64(path: string): string {
  return binary(path).toString('base64');
}

function unb64(text: string): string {
  return Buffer.from(text, 'base64').toString('latin1');
}

async function commitTree(ctx: RepoContext, tree: string, parents: readonly string[], message: string, now: number): Promise<string> {
  return objectWriter(ctx).writeCommit(tree, parents, message, now);
}

/**
 * Trees and blobs are remembered by a digest of their input: an unchanged
 * index or mode list (the common case between iterations) costs no request to
 * git. A remembered id whose object was pruned since is found out by git: the
 * tree or commit that names it is refused, and the checkpoint starts over
 * without its caches.
 */
async function mktree(ctx: RepoContext, entries: readonly TreeEntry[], cache: StatCache): Promise<string> {
  const digest = `tree:${sha1(entries.map((e) => `${e.mode} ${e.oid}\t${e.name}\0`).join(''))}`;
  const known = cache.tree(digest);
  if (known) return known;
  const tree = await objectWriter(ctx).writeTree(entries);
  cache.rememberTree(digest, tree);
  return tree;
}

async function writeBlobs(ctx: RepoContext, blobs: readonly (readonly [string, Buffer])[], cache: StatCache): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  const missing: (readonly [string, Buffer, string])[] = [];
  for (const [name, content] of blobs) {
    // Comparing with the bytes written last time is cheaper than digesting them (the index is large).
    const again = cache.writtenBlob(name, content);
    if (again) {
      result.set(name, again);
      continue;
    }
    const digest = `blob:${sha1(content)}`;
    const known = cache.tree(digest);
    if (known) result.set(name, known);
    else missing.push([name, content, digest]);
  }
  const oids = await objectWriter(ctx).writeBlobs(missing.map(([, content]) => content));
  missing.forEach(([name, , digest], i) => {
    result.set(name, oids[i] as string);
    cache.rememberTree(digest, oids[i] as string);
  });
  cache.rememberWrittenBlobs(new Map(blobs.map(([name, content]) => [name, { content, oid: result.get(name) as string }])));
  return result;
}

const EMPTY_BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';

/** The data tree's blobs, in the order its entries are listed. */
const DATA_BLOBS = ['ralph-snapshot.json', 'perms', 'empty-dirs', 'index', 'stash-log'] as const;

function permsListing(files: ReadonlyMap<string, FileEntry>): Buffer {
  const perms = [...files]
    .filter(([, e]) => e.mode !== '120000' && e.mode !== '160000')
    .map(([path, e]) => `${e.perm.toString(8)} ${path}\0`)
    .sort()
    .join('');
  return Buffer.from(perms, 'latin1');
}

/** The tree git writes from a copy of the raw index (reusing the subtrees the index caches), or null when it cannot (conflicts). */
async function treeOfIndexCopy(ctx: RepoContext, index: Buffer): Promise<string | null> {
  const dir = ralphGitDir(ctx);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, tempName('index-copy'));
  try {
    writeFileSync(file, index);
    const result = await runGit(['write-tree', '--missing-ok'], { cwd: ctx.root, env: { GIT_INDEX_FILE: file } });
    return result.code === 0 ? result.stdout.toString('utf8').trim() : null;
  } finally {
    rmSync(file, { force: true });
    rmSync(`${file}.lock`, { force: true });
  }
}

/**
 * A tree that keeps every blob of the index reachable with the snapshot
 * (staged content is in no commit yet). Usually the index's own tree, which
 * git writes in a few milliseconds from the subtrees the index caches; an
 * index with conflicts has no tree, so its blob ids are listed in one flat
 * tree instead, which costs git a lookup per blob.
 */
async function indexObjectsTree(ctx: RepoContext, state: RepoState, cache: StatCache): Promise<string | null> {
  if (!state.index) return null;
  const known = cache.writtenIndexTree(state.index);
  if (known !== undefined) return known;
  let tree = await treeOfIndexCopy(ctx, state.index);
  if (tree === null) {
    const objects = state.indexObjects.filter((o) => o !== EMPTY_BLOB);
    // Not checked by git (--missing): an index may name a blob that is not stored, and a tree of it still keeps the others.
    const listing = Buffer.from(objects.map((o) => `100644 blob ${o}\t${o}\0`).join(''), 'latin1');
    tree = objects.length === 0 ? null : (await gitText(['mktree', '-z', '--missing'], { cwd: ctx.root, input: listing })).trim();
  }
  cache.rememberWrittenIndexTree(state.index, tree);
  return tree;
}

/**
 * The commit that carries a data tree. It names no snapshot, so snapshots
 * whose data is the same (the index, refs and permission bits usually stay as
 * they were between iterations) share one and it is not made again. A
 * remembered commit that was pruned since is made again: Ralph looks for it
 * where it writes objects itself, git's commit-tree refuses a missing parent
 * (the error makes the checkpoint start over without its caches).
 */
async function dataCommitOf(ctx: RepoContext, dataTree: string, kind: SnapshotInfo['kind'], cache: StatCache, now: number): Promise<string> {
  const key = `data-commit:${kind}:${dataTree}`;
  const known = cache.tree(key);
  if (known) return known;
  const commit = await commitTree(ctx, dataTree, [], `ralph ${kind} data\n`, now);
  cache.rememberTree(key, commit);
  return commit;
}

/** Writes `state` as a snapshot commit; returns its id. */
export async function writeSnapshot(ctx: RepoContext, state: RepoState, info: SnapshotInfo, cache: StatCache, now: number): Promise<string> {
  const data: DataFile = {
    version: SNAPSHOT_DATA_VERSION,
    prefix: ctx.prefix,
    head: state.head,
    refs: state.refs,
    refsComplete: state.refsComplete,
    hasIndex: state.index !== null,
    indexView: state.indexView,
    hasStash: state.stashLog !== null,
    recordsEmptyDirs: state.emptyDirs !== null,
    nested: state.nested.map((n) => ({ path: b64(n.path), head: n.head })),
    submodules: state.submodules.map((n) => ({ path: b64(n.path), head: n.head })),
    opState: state.opState?.map((f) => ({ path: f.path, perm: f.perm, content: f.content ? f.content.toString('base64') : null })) ?? null,
  };
  // The files as the last snapshot wrote them need neither their tree nor their permission listing again.
  const written = cache.writtenFiles(ctx.prefix, state.files);
  const blobs: [string, Buffer][] = [['ralph-snapshot.json', Buffer.from(`${JSON.stringify(data, null, 1)}\n`)]];
  if (!written) blobs.push(['perms', permsListing(state.files)]);
  blobs.push(['empty-dirs', Buffer.from((state.emptyDirs ?? []).map((d) => `${d}\0`).join(''), 'latin1')]);
  if (state.index) blobs.push(['index', state.index]);
  if (state.stashLog) blobs.push(['stash-log', state.stashLog]);
  const [tree, blobIds, objectsTree] = await Promise.all([
    written?.tree ?? filesTree(ctx, state.files),
    writeBlobs(ctx, blobs, cache),
    indexObjectsTree(ctx, state, cache),
  ]);
  const perms = written?.perms ?? (blobIds.get('perms') as string);
  if (!written) cache.rememberWrittenFiles(ctx.prefix, state.files, { tree, perms });
  const dataEntries: TreeEntry[] = DATA_BLOBS.flatMap((name) => {
    const oid = name === 'perms' ? perms : blobIds.get(name);
    return oid ? [{ mode: '100644', oid, name }] : [];
  });
  if (objectsTree) dataEntries.push({ mode: '40000', oid: objectsTree, name: 'index-objects' });
  const dataTree = await mktree(ctx, dataEntries, cache);
  const marker = info.kind === 'checkpoint' ? 'Ralph-Checkpoint' : 'Ralph-Attempt';
  const dataCommit = await dataCommitOf(ctx, dataTree, info.kind, cache, now);
  const headCommit = /^[0-9a-f]{40,64}$/.test(state.head) ? state.head : (state.refs?.find((r) => `ref: ${r.name}` === state.head)?.commit ?? '');
  const tips = new Set<string>();
  if (headCommit) tips.add(headCommit);
  for (const ref of state.refs ?? []) if (ref.commit && !ref.symref) tips.add(ref.commit);
  for (const commit of stashCommits(state.stashLog)) tips.add(commit);
  const worktree = worktreeName(ctx);
  const message = [
    info.subject,
    '',
    ...(info.body ?? []),
    ...(info.body?.length ? [''] : []),
    `${marker}: ${info.id}`,
    `Ralph-Loop: ${info.loop}`,
    `Ralph-Created-At: ${info.createdAt}`,
    `Ralph-Head: ${state.head}`,
    // The commit HEAD resolved to, so a restore can say which commits it would move a branch over.
    ...(headCommit ? [`Ralph-Head-Commit: ${headCommit}`] : []),
    `${PREFIX_TRAILER}: ${ctx.prefix || '.'}`,
    ...(worktree ? [`${WORKTREE_TRAILER}: ${worktree}`] : []),
    '',
  ].join('\n');
  return commitTree(ctx, tree, [dataCommit, ...tips], message, now);
}

/** The commits of the stash entries (second column of each reflog line). */
export function stashCommits(log: Buffer | null): string[] {
  if (!log) return [];
  return log
    .toString('utf8')
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .filter((id) => /^[0-9a-f]{40,64}$/.test(id) && !/^0+$/.test(id));
}

export interface Snapshot extends SnapshotInfo {
  commit: string;
  /** The repository prefix the snapshot was taken at. */
  prefix: string;
  state: RepoState;
}

export function trailers(message: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const match of message.matchAll(/^(Ralph-[A-Za-z-]+): (.*)$/gm)) map.set(match[1] as string, (match[2] as string).trim());
  return map;
}

/** Reads `rev:path` objects in one process; missing ones come back undefined. */
export async function catBlobs(ctx: RepoContext, requests: readonly string[]): Promise<(Buffer | undefined)[]> {
  if (requests.length === 0) return [];
  const out = await gitBytes(['cat-file', '--batch'], { cwd: ctx.root, input: Buffer.from(`${requests.join('\n')}\n`, 'latin1') });
  const results: (Buffer | undefined)[] = [];
  let pos = 0;
  for (let i = 0; i < requests.length; i += 1) {
    const nl = out.indexOf(10, pos);
    const header = out.toString('latin1', pos, nl);
    pos = nl + 1;
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      results.push(undefined);
      continue;
    }
    const size = Number(header.split(' ')[2]);
    results.push(out.subarray(pos, pos + size));
    pos += size + 1;
  }
  return results;
}

/** Reads a snapshot back; a string says why `commit` is not one of Ralph's. */
export async function readSnapshot(ctx: RepoContext, commit: string): Promise<Snapshot | string> {
  const raw = await runGit(['cat-file', 'commit', commit], { cwd: ctx.root });
  if (raw.code !== 0) return `commit ${commit.slice(0, 12)} no longer exists`;
  const text = raw.stdout.toString('utf8');
  const split = text.indexOf('\n\n');
  const headers = text.slice(0, split);
  const message = text.slice(split + 2);
  const parents = Array.from(headers.matchAll(/^parent ([0-9a-f]+)$/gm), (m) => m[1] as string);
  const t = trailers(message);
  const kind = t.has('Ralph-Checkpoint') ? 'checkpoint' : t.has('Ralph-Attempt') ? 'attempt' : null;
  const id = t.get('Ralph-Checkpoint') ?? t.get('Ralph-Attempt');
  const data = parents[0];
  if (!kind || !id || !data) return `commit ${commit.slice(0, 12)} is not a Ralph checkpoint`;
  const [json, perms, empty, index, stash] = await catBlobs(
    ctx,
    DATA_BLOBS.map((n) => `${data}:${n}`),
  );
  if (!json || !perms || !empty) return `commit ${commit.slice(0, 12)} is a damaged Ralph checkpoint (its data is missing)`;
  let parsed: DataFile;
  try {
    parsed = JSON.parse(json.toString('utf8')) as DataFile;
  } catch {
    return `commit ${commit.slice(0, 12)} is a damaged Ralph checkpoint (unreadable data)`;
  }
  if (parsed.version !== SNAPSHOT_DATA_VERSION) return `commit ${commit.slice(0, 12)} was made by another version of Ralph`;
  if ((parsed.hasIndex && !index) || (parsed.hasStash && !stash))
    return `commit ${commit.slice(0, 12)} is a damaged Ralph checkpoint (index or stash data missing)`;

  const permOf = new Map<string, number>();
  for (const item of splitZ(perms)) {
    const space = item.indexOf(' ');
    permOf.set(item.slice(space + 1), parseInt(item.slice(0, space), 8));
  }
  const files = await readFilesTree(ctx, commit, parsed.prefix, permOf);
  const opState: OpFile[] | null =
    parsed.opState?.map((f) => ({ path: f.path, perm: f.perm, content: f.content === null ? null : Buffer.from(f.content, 'base64') })) ?? null;
  const subs = (list: { path: string; head: string | null }[]): SubRepo[] => list.map((n) => ({ path: unb64(n.path), head: n.head }));
  return {
    kind,
    id,
    loop: Number(t.get('Ralph-Loop') ?? 0) || 0,
    createdAt: t.get('Ralph-Created-At') ?? new Date(0).toISOString(),
    subject: message.split('\n')[0] ?? '',
    commit,
    prefix: parsed.prefix,
    state: {
      files,
      emptyDirs: parsed.recordsEmptyDirs ? splitZ(empty) : null,
      nested: subs(parsed.nested),
      submodules: subs(parsed.submodules),
      index: parsed.hasIndex ? (index as Buffer) : null,
      head: parsed.head,
      refs: parsed.refs,
      refsComplete: parsed.refsComplete !== false,
      stashLog: parsed.hasStash ? (stash as Buffer) : null,
      opState,
      indexObjects: [],
      indexView: parsed.indexView ?? '',
    },
  };
}

/** The files of a snapshot's tree under `prefix`, keyed relative to it. */
export async function readFilesTree(ctx: RepoContext, commit: string, prefix: string, permOf: Map<string, number>): Promise<Map<string, FileEntry>> {
  const out = await gitBytes(['ls-tree', '-r', '-z', '--full-tree', commit], { cwd: ctx.root });
  const bprefix = Buffer.from(prefix, 'utf8').toString('latin1');
  const files = new Map<string, FileEntry>();
  for (const line of splitZ(out)) {
    const tab = line.indexOf('\t');
    const full = line.slice(tab + 1);
    if (!full.startsWith(bprefix)) continue;
    const [mode = '', , oid = ''] = line.slice(0, tab).split(' ');
    const path = full.slice(bprefix.length);
    const perm = mode === '120000' || mode === '160000' ? 0 : (permOf.get(path) ?? (mode === '100755' ? 0o755 : 0o644));
    files.set(path, { mode, oid, perm });
  }
  return files;
}
