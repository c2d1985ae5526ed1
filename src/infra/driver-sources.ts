import { createHash } from 'node:crypto';
import { closeSync, fstatSync, readdirSync, readSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openRegularFile } from '../state/regular-file.js';
import { lstatOrNull } from './safe-fs.js';

/**
 * What the drivers Ralph switches off in its git calls are read from. Git reads them (two git
 * calls, the most costly part of an iteration's own work after the agent ran) from:
 * - the repository's own configuration files, `config` and `config.worktree`, and what they
 *   include (any file, anywhere);
 * - the index, whose gitlinks name the submodules `git status` looks inside;
 * - each submodule that is on disk: its own configuration and index, three levels down.
 * When every one of those is byte for byte what it was at the last reading, git's answer is
 * what it was then, and it is used again without asking git. Only what can be compared whole
 * is compared: a configuration that includes another file, a file behind a link or of another
 * kind, a split index, or a submodule on disk means git is asked again, every time.
 */
export interface DriverSources {
  /** A digest of the bytes the answer was read from. */
  digest: string;
  /** The work trees of the submodules the index records (none of them on disk when the answer was read). */
  gitlinks: readonly string[];
}

/** Where git found the repository: its git dir and its common dir (the same outside a linked worktree). */
export interface RepositoryDirs {
  gitDir: string;
  commonDir: string;
}

/** A configuration file larger than this is not compared (git is asked): a real one is a few hundred bytes. */
const MAX_CONFIG_BYTES = 256 * 1024;
/** Any mention of an include, whatever its case, in a configuration file: what it includes could have changed. */
const INCLUDE = /include/i;
/** An index is read and digested in pieces of this size: a large one is never held whole. */
const READ_PIECE = 256 * 1024;

/** A regular file opened for reading (regular-file.ts: never through a link, never blocking on a FIFO); null when absent; undefined when it is something else or cannot be opened. */
function openRegular(path: string): { fd: number; size: number } | null | undefined {
  let fd: number;
  try {
    fd = openRegularFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : undefined;
  }
  try {
    return { fd, size: fstatSync(fd).size };
  } catch {
    closeSync(fd);
    return undefined;
  }
}

/**
 * Hands the bytes of a regular file to `take`, piece by piece, and says whether it read the
 * whole file: absent (null, nothing handed over), read whole (true), or anything else (false:
 * another kind of file, larger than `maxBytes`, or one that changed size while it was read).
 */
function readRegular(path: string, take: (bytes: Buffer) => void, maxBytes = Infinity): boolean | null {
  const file = openRegular(path);
  if (file === null) return null;
  if (file === undefined) return false;
  const { fd, size } = file;
  try {
    if (size > maxBytes) return false;
    const piece = Buffer.allocUnsafe(Math.min(Math.max(size, 1), READ_PIECE));
    let at = 0;
    for (;;) {
      const n = readSync(fd, piece, 0, piece.length, at);
      if (n === 0) break;
      take(piece.subarray(0, n));
      at += n;
      if (at > size) return false;
    }
    return at === size;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** Whether the git dir holds the shared part of a split index (which the index names, and git does not check against its name). */
function hasSharedIndex(gitDir: string): boolean {
  try {
    return readdirSync(gitDir).some((name) => name.startsWith('sharedindex.'));
  } catch {
    return true;
  }
}

/** The index git reads in `cwd`: GIT_INDEX_FILE when the call sets one, else the git dir's. */
function indexPath(cwd: string, dirs: RepositoryDirs, env: NodeJS.ProcessEnv): string {
  const chosen = env['GIT_INDEX_FILE'];
  return chosen ? resolve(cwd, chosen) : join(dirs.gitDir, 'index');
}

/**
 * The digest of what git reads the drivers from in `cwd`, or undefined when that cannot be
 * told by comparing bytes (then git must be asked).
 */
export function driverSourceDigest(cwd: string, dirs: RepositoryDirs, env: NodeJS.ProcessEnv): string | undefined {
  const hash = createHash('sha256');
  // Each part labelled, its length before it: no two different sets of parts give the same bytes to digest.
  const add = (label: string, bytes: Buffer): void => {
    hash.update(`${label}\0${bytes.length}\0`);
    hash.update(bytes);
  };
  // Git's own variables (GIT_CONFIG_COUNT and its pairs, GIT_CONFIG_GLOBAL, …) may change what it
  // reads; only the ones that make it write a trace cannot.
  for (const name of Object.keys(env).sort()) if (name.startsWith('GIT_') && !name.startsWith('GIT_TRACE')) add(`env ${name}`, Buffer.from(env[name] ?? ''));
  const configs = new Set([
    join(dirs.commonDir, 'config'),
    join(dirs.commonDir, 'config.worktree'),
    join(dirs.gitDir, 'config'),
    join(dirs.gitDir, 'config.worktree'),
  ]);
  for (const path of configs) {
    const pieces: Buffer[] = [];
    const whole = readRegular(path, (bytes) => pieces.push(Buffer.from(bytes)), MAX_CONFIG_BYTES);
    if (whole === false) return undefined;
    if (whole === null) {
      add(`no config ${path}`, Buffer.alloc(0));
      continue;
    }
    const bytes = Buffer.concat(pieces);
    if (INCLUDE.test(bytes.toString('latin1'))) return undefined;
    add(`config ${path}`, bytes);
  }
  if (hasSharedIndex(dirs.gitDir)) return undefined;
  const index = indexPath(cwd, dirs, env);
  // The index last: its bytes go to the digest as they are read, however many there are, and
  // their count (or that there was none) after them.
  hash.update(`index ${index}\0`);
  let count = 0;
  const indexRead = readRegular(index, (bytes) => {
    hash.update(bytes);
    count += bytes.length;
  });
  if (indexRead === false) return undefined;
  hash.update(indexRead === null ? '\0absent' : `\0${count}`);
  return hash.digest('hex');
}

/** Whether any of the submodules recorded in the index has a work tree on disk now. */
export function anySubmoduleOnDisk(gitlinks: readonly string[]): boolean {
  return gitlinks.some((tree) => lstatOrNull(join(tree, '.git')) !== null);
}

/** Whether the answer read from `known` still holds: the same bytes, and still no submodule on disk. */
export function sourcesUnchanged(known: DriverSources | undefined, digest: string | undefined): boolean {
  return known !== undefined && digest !== undefined && known.digest === digest && !anySubmoduleOnDisk(known.gitlinks);
}
