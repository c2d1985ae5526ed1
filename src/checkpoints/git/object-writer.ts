import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { converseWithGit, RALPH_IDENTITY } from '../../infra/git.js';
import type { Conversation } from '../../infra/process.js';
import { BatchHelper, GitBatchError } from './batch-helper.js';
import { gitText, quoteLine, ralphGitDir, tempName, type RepoContext } from './git-plumbing.js';

/**
 * Every git object a checkpoint or a rollback stores, written by git itself:
 * file contents by one long-lived `git hash-object -w --stdin-paths`, trees by
 * one long-lived `git mktree --batch`, commits by `git commit-tree`. Git then
 * writes them the way the repository asks, whatever its settings say and
 * wherever they are set (another hash function, shared permissions, fsync,
 * an included or global configuration).
 *
 * The batch commands live for one checkpoint or rollback (withObjectWriter):
 * started on first use, so a batch of small objects costs one process, and
 * ended, stdin closed and exit awaited, when it is over, also after an error.
 *
 * Git checks what it is given: mktree refuses an entry whose object is not
 * stored and commit-tree a missing tree or parent, so an id a cache kept from
 * before a prune is found out (the checkpoint then starts over without caches).
 */

export interface TreeEntry {
  /** Git's mode without leading zeros: 100644, 100755, 120000, 160000 or 40000. */
  mode: string;
  /** The entry's name as a binary string (one char per byte). */
  name: string;
  oid: string;
}

const TYPE_OF_MODE: Record<string, string> = { '40000': 'tree', '160000': 'commit' };

export class GitObjectWriter {
  private blobs: Promise<BatchHelper> | undefined;
  private trees: Promise<BatchHelper> | undefined;
  private readonly started: Promise<BatchHelper>[] = [];
  /** A `git update-ref --stdin` started ahead, not asked anything yet. */
  private refUpdate: Promise<Conversation> | undefined;

  constructor(private readonly ctx: RepoContext) {}

  private async helper(which: 'blobs' | 'trees'): Promise<BatchHelper> {
    const current = this[which];
    // A helper git stopped (it refused a request) is not asked again: a new one is started.
    if (current && !(await current).broken) return current;
    const args = which === 'blobs' ? ['hash-object', '-w', '--no-filters', '--stdin-paths'] : ['mktree', '-z', '--batch'];
    const started = BatchHelper.start(args, { cwd: this.ctx.root });
    this[which] = started;
    this.started.push(started);
    return started;
  }

  /** Stores the files at `paths` (binary strings relative to the repository's top) as they are on disk, no filter applied; their ids in order. */
  async hashPaths(paths: readonly string[]): Promise<string[]> {
    if (paths.length === 0) return [];
    const helper = await this.helper('blobs');
    const request = Buffer.from(`${paths.map(quoteLine).join('\n')}\n`, 'latin1');
    return helper.ask(request, paths.length);
  }

  /** Stores `contents` as blobs (through files in Ralph's git-dir area, which hash-object reads); their ids in order. */
  async writeBlobs(contents: readonly Buffer[]): Promise<string[]> {
    if (contents.length === 0) return [];
    const dir = join(ralphGitDir(this.ctx), tempName('blobs'));
    mkdirSync(dir, { recursive: true });
    try {
      const files = contents.map((content, i) => {
        const file = join(dir, String(i));
        writeFileSync(file, content);
        return Buffer.from(file, 'utf8').toString('latin1');
      });
      return await this.hashPaths(files);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Stores a tree of `entries` (git sorts them); its id. */
  async writeTree(entries: readonly TreeEntry[]): Promise<string> {
    const helper = await this.helper('trees');
    const lines = entries.map((e) => `${e.mode.padStart(6, '0')} ${TYPE_OF_MODE[e.mode] ?? 'blob'} ${e.oid}\t${e.name}\0`);
    const [oid = ''] = await helper.ask(Buffer.from(`${lines.join('')}\0`, 'latin1'));
    return oid;
  }

  /** Stores a commit as Ralph's (fixed identity, the date `now`); its id. */
  async writeCommit(tree: string, parents: readonly string[], message: string, now: number): Promise<string> {
    const args = ['commit-tree', tree, ...[...new Set(parents)].flatMap((p) => ['-p', p])];
    return (await gitText(args, { cwd: this.ctx.root, input: message, identity: RALPH_IDENTITY, at: now })).trim();
  }

  /**
   * Starts the `git update-ref --stdin` that createRef will use, so that git's
   * start overlaps the work before it (a checkpoint's listing of the files).
   */
  startRefUpdate(reflogMessage: string): void {
    if (this.refUpdate) return;
    this.refUpdate = converseWithGit(['update-ref', '--stdin', '-z', '-m', reflogMessage], { cwd: this.ctx.root, onStdout: () => undefined });
    // A start that failed is reported by createRef, which starts again.
    this.refUpdate.catch(() => undefined);
  }

  /** Creates `ref` at `oid` in one transaction of git's; fails when the ref exists. */
  async createRef(ref: string, oid: string, reflogMessage: string): Promise<void> {
    this.startRefUpdate(reflogMessage);
    const update = this.refUpdate as Promise<Conversation>;
    this.refUpdate = undefined;
    const conversation = await update;
    conversation.write(`create ${ref}\0${oid}\0`);
    const outcome = await conversation.finish();
    if (outcome.exitCode !== 0) {
      throw new GitBatchError(
        `git update-ref failed: ${outcome.failure ?? (outcome.stderr.toString('utf8').trim() || `exit code ${outcome.exitCode ?? '?'}`)}`,
      );
    }
  }

  /** Ends every batch command it started and waits for each to exit. */
  async close(): Promise<void> {
    const refUpdate = this.refUpdate;
    this.refUpdate = undefined;
    const helpers = await Promise.allSettled(this.started.splice(0));
    await Promise.all([
      ...helpers.map((h) => (h.status === 'fulfilled' ? h.value.finish() : undefined)),
      refUpdate?.then((c) => c.finish()).catch(() => undefined),
    ]);
    this.blobs = undefined;
    this.trees = undefined;
  }
}

/** The writer of each context a checkpoint or rollback works in (a copy of the repository's context, made by withObjectWriter). */
// Cache: the writer of each context withObjectWriter made; each call makes a fresh copy of its
// context, so no two calls or loops share an entry; an entry goes with its context (WeakMap).
const writers = new WeakMap<RepoContext, GitObjectWriter>();

/**
 * Runs `work` with an object writer for the repository of `ctx`; the batch
 * commands it started have ended when this returns or throws.
 */
export async function withObjectWriter<T>(ctx: RepoContext, work: (ctx: RepoContext) => Promise<T>): Promise<T> {
  if (writers.has(ctx)) return work(ctx);
  const scoped = { ...ctx };
  const writer = new GitObjectWriter(scoped);
  writers.set(scoped, writer);
  try {
    return await work(scoped);
  } finally {
    await writer.close();
  }
}

/** The object writer of the checkpoint or rollback `ctx` belongs to. */
export function objectWriter(ctx: RepoContext): GitObjectWriter {
  const writer = writers.get(ctx);
  if (!writer) throw new Error('internal error: git objects are written only inside withObjectWriter');
  return writer;
}
