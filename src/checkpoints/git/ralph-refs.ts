import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gitText, runGit, type RepoContext } from './git-plumbing.js';
import { objectWriter } from './object-writer.js';

/**
 * How a checkpoint's own ref (refs/ralph/checkpoints/<id>) is created and,
 * once its iteration passed, deleted. Two writers answer to one interface and
 * one conformance suite (tests/integration/checkpoints/ralph-refs.test.ts):
 *
 * - `gitRefs`: git's update-ref does it all (the create through the
 *   `update-ref --stdin` the checkpoint started ahead, see object-writer.ts).
 * - `fileRefs`: the one place Ralph still writes ref files itself, for its own
 *   refs only. Measured reason: on the checkpoint bench (10,000 files, on a
 *   machine shared with other work, old and new run by turns) the two
 *   update-ref processes of a checkpoint and its drop put checkpoint + drop
 *   at 2.3× and 3.1× git's floor (budget 2×) where the same runs of the
 *   previous version, writing the ref file, measured 1.5× and 1.7×; the drop
 *   alone went from 0.3 ms to 10–18 ms. It writes as git writes a loose ref
 *   (the ref's lock file created exclusively, the new value renamed into
 *   place) and leaves the writing to git whenever git would do more: refs
 *   kept in another format, a configuration (any of its files, as git reads
 *   it) that shares the repository with a group, logs every ref update or
 *   asks for fsync, a lock held by someone else, a ref that is packed, logged
 *   or not what it should be.
 */
export interface RalphRefWriter {
  /** Called as a checkpoint begins, before its files are listed. */
  prepare(ctx: RepoContext, reflogMessage: string): void;
  /** Creates `ref` at `oid`; throws when it exists already or git refuses. */
  create(ctx: RepoContext, ref: string, oid: string, reflogMessage: string): Promise<void>;
  /** Deletes `ref` when it holds `oid`; false when it does not (gone, or moved elsewhere). */
  remove(ctx: RepoContext, ref: string, oid: string): Promise<boolean>;
}

export const gitRefs: RalphRefWriter = {
  prepare(ctx, reflogMessage) {
    // git's start overlaps the listing of the files.
    objectWriter(ctx).startRefUpdate(reflogMessage);
  },
  async create(ctx, ref, oid, reflogMessage) {
    await objectWriter(ctx).createRef(ref, oid, reflogMessage);
  },
  async remove(ctx, ref, oid) {
    return (await runGit(['update-ref', '-d', ref, oid], { cwd: ctx.root })).code === 0;
  },
};

/** Settings under which git does more for a ref than write its file (names as `git config --list` prints them). */
const GIT_ONLY_SETTING = /^(?:core\.sharedrepository|core\.fsync\w*|core\.logallrefupdates|extensions\.refstorage)$/;

/** Whether Ralph may write the ref files of each repository, asked of git once per repository and process. */
// Cache: per repository (common dir), whether its settings let Ralph write ref files; the same for
// every loop in it; kept for the life of the process (settings such as core.fsync are not changed mid-run).
const writable = new Map<string, Promise<boolean>>();

async function refsAreFiles(ctx: RepoContext): Promise<boolean> {
  let known = writable.get(ctx.commonDir);
  if (!known) {
    known = gitText(['config', '--list', '-z'], { cwd: ctx.root }).then(
      (listing) =>
        !existsSync(join(ctx.commonDir, 'reftable')) &&
        listing.split('\0').every((entry) => {
          const [key = '', value = ''] = entry.split('\n');
          if (!GIT_ONLY_SETTING.test(key)) return true;
          // The one value of these that changes nothing for Ralph's refs.
          return key === 'core.logallrefupdates' && /^(?:true|false|yes|no|on|off|1|0|)$/i.test(value);
        }),
      () => false,
    );
    writable.set(ctx.commonDir, known);
  }
  return known;
}

function isPacked(ctx: RepoContext, ref: string): boolean {
  try {
    return readFileSync(join(ctx.commonDir, 'packed-refs'), 'latin1').includes(` ${ref}\n`);
  } catch {
    return false;
  }
}

/** Runs `change` holding the ref's lock; false when the lock is someone else's or `change` declines. */
function underLock(path: string, change: (fd: number) => boolean | 'renamed'): boolean {
  const lock = `${path}.lock`;
  let fd: number;
  try {
    mkdirSync(dirname(path), { recursive: true });
    fd = openSync(lock, 'wx');
  } catch {
    return false;
  }
  let outcome: boolean | 'renamed' = false;
  try {
    outcome = change(fd);
    return outcome !== false;
  } finally {
    if (outcome !== 'renamed') {
      try {
        closeSync(fd);
      } catch {
        // Closed already by a change that failed after closing it.
      }
      rmSync(lock, { force: true });
    }
  }
}

function createFile(ctx: RepoContext, ref: string, oid: string): boolean {
  const path = join(ctx.commonDir, ref);
  return underLock(path, (fd) => {
    if (existsSync(path) || existsSync(join(ctx.commonDir, 'logs', ref)) || isPacked(ctx, ref)) return false;
    writeSync(fd, `${oid}\n`);
    closeSync(fd);
    // The lock becomes the ref, as git does it.
    renameSync(`${path}.lock`, path);
    return 'renamed';
  });
}

function removeFile(ctx: RepoContext, ref: string, oid: string): boolean {
  const path = join(ctx.commonDir, ref);
  return underLock(path, () => {
    let value: string;
    try {
      value = readFileSync(path, 'latin1');
    } catch {
      return false;
    }
    if (value !== `${oid}\n` || existsSync(join(ctx.commonDir, 'logs', ref)) || isPacked(ctx, ref)) return false;
    unlinkSync(path);
    return true;
  });
}

export const fileRefs: RalphRefWriter = {
  prepare(ctx) {
    // Whether the files may be written is asked of git while the files are listed.
    void refsAreFiles(ctx);
  },
  async create(ctx, ref, oid, reflogMessage) {
    if (ref.startsWith('refs/ralph/') && (await refsAreFiles(ctx)) && createFile(ctx, ref, oid)) return;
    // git says what is wrong (an existing ref, a lock), or does what the repository asks for.
    await gitRefs.create(ctx, ref, oid, reflogMessage);
  },
  async remove(ctx, ref, oid) {
    if (ref.startsWith('refs/ralph/') && (await refsAreFiles(ctx)) && removeFile(ctx, ref, oid)) return true;
    return gitRefs.remove(ctx, ref, oid);
  },
};
