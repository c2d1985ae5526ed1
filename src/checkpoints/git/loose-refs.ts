import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RepoContext } from './git-plumbing.js';

/**
 * Ralph's own refs (a checkpoint's, made before an iteration and deleted
 * after it passed), written the way git writes a loose ref: under the ref's
 * lock file (`<ref>.lock`, created exclusively, which keeps any git command
 * out meanwhile), the new value renamed into place. Each answers false
 * whenever git must decide: refs kept in another format, a repository that
 * logs every ref update or shares its files with a group, a lock held by
 * someone else, a ref that is packed, logged or not what it should be. The
 * caller then asks git, which says what is wrong.
 */

/** Settings under which git does more for a ref than write its file. */
const GIT_ONLY_SETTINGS = /refstorage|sharedrepository|logallrefupdates\s*=\s*always/i;

const writable = new Map<string, boolean>();

function refsAreFiles(ctx: RepoContext): boolean {
  const known = writable.get(ctx.commonDir);
  if (known !== undefined) return known;
  let config = '';
  try {
    config = readFileSync(join(ctx.commonDir, 'config'), 'utf8');
  } catch {
    // No config file: git's defaults.
  }
  const answer = !existsSync(join(ctx.commonDir, 'reftable')) && !GIT_ONLY_SETTINGS.test(config);
  writable.set(ctx.commonDir, answer);
  return answer;
}

function isPacked(ctx: RepoContext, ref: string): boolean {
  try {
    return readFileSync(join(ctx.commonDir, 'packed-refs'), 'latin1').includes(` ${ref}\n`);
  } catch {
    return false;
  }
}

/**
 * Runs `change` holding the ref's lock (its open file descriptor given);
 * false when the lock is someone else's or `change` declines. A change that
 * renamed the lock into place ('renamed') leaves nothing to remove.
 */
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

/** Creates `ref` (refs/ralph/…) pointing at `oid`; false when git must do it (see above), for one because the ref exists. */
export function createRalphRef(ctx: RepoContext, ref: string, oid: string): boolean {
  if (!ref.startsWith('refs/ralph/') || !refsAreFiles(ctx)) return false;
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

/** Deletes `ref` when it points at `oid`; false when git must do it (see above), for one because it points elsewhere or is gone. */
export function deleteRalphRef(ctx: RepoContext, ref: string, oid: string): boolean {
  if (!ref.startsWith('refs/ralph/') || !refsAreFiles(ctx)) return false;
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
