import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';

/**
 * File operations of a rollback, confined to one root. Paths are binary
 * strings relative to the root. No operation ever goes through a symbolic
 * link: every parent directory is checked with lstat, a symlink where a
 * directory must be is removed as the link itself (an agent's file; its
 * target is never looked at), and files are replaced by rename, which replaces
 * a link instead of writing through it. So nothing outside the root is ever
 * read, written, renamed or deleted, whatever the agent left behind.
 */

/** lstat, or null when nothing is there (or it cannot be read). */
export function lstatOrNull(path: Buffer | string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

export interface SafeFsReport {
  /** Things in the way that were not ours to delete (ignored content), moved aside: where each went. */
  displaced: string[];
  /** Directories whose owner had lost access to them (the agent's chmod): access given back. */
  reopened: string[];
}

/** Read, write and search for the owner: what a directory needs for the rollback to work inside it. */
const OWNER_ACCESS = 0o700;

export class SafeTree {
  readonly report: SafeFsReport = { displaced: [], reopened: [] };

  constructor(
    private readonly root: string,
    /** Paths that may be deleted when in the way (saved elsewhere already). */
    private readonly disposable: (path: string) => boolean,
    private readonly displacedSuffix: string,
    /**
     * Where things in the way are moved, out of the work tree (in the git dir), so a
     * rollback leaves no stray entries among the project's files; null: next to them.
     */
    private readonly asideDir: string | null = null,
  ) {}

  private abs(rel: string): Buffer {
    return underRoot(this.root, rel);
  }

  /** Moves `rel` aside instead of deleting what is not ours. */
  private displace(rel: string): void {
    // An empty directory holds no bytes: removing it loses nothing and leaves no stray folder behind.
    if (lstatOrNull(this.abs(rel))?.isDirectory()) {
      try {
        rmdirSync(this.abs(rel));
        return;
      } catch {
        // Not empty: moved aside below.
      }
    }
    if (this.asideDir !== null) {
      const dest = underRoot(this.asideDir, rel);
      try {
        mkdirSync(dest.subarray(0, dest.lastIndexOf(0x2f)), { recursive: true, mode: 0o700 });
        renameSync(this.abs(rel), dest);
        this.report.displaced.push(dest.toString('latin1'));
        return;
      } catch {
        // Another file system (a worktree whose git dir is elsewhere): next to it, below.
      }
    }
    const aside = `${rel}.${this.displacedSuffix}`;
    renameSync(this.abs(rel), this.abs(aside));
    this.report.displaced.push(this.abs(aside).toString('latin1'));
  }

  /**
   * Gives the owner of a directory back the access the rollback needs inside it
   * (an agent may have run `chmod 000` on it); the other permission bits stay.
   */
  private reopen(rel: string, st: Stats): void {
    if ((st.mode & OWNER_ACCESS) === OWNER_ACCESS) return;
    chmodSync(this.abs(rel), (st.mode & 0o7777) | OWNER_ACCESS);
    if (!this.report.reopened.includes(rel)) this.report.reopened.push(rel);
  }

  /** Makes every component of `dir` a real directory, removing links and files the attempt put in the way. */
  ensureDir(dir: string): void {
    if (dir === '') return;
    let current = '';
    for (const part of dir.split('/')) {
      current = current ? `${current}/${part}` : part;
      const st = lstatOrNull(this.abs(current));
      if (st?.isDirectory()) {
        this.reopen(current, st);
        continue;
      }
      if (st) {
        if (this.disposable(current)) unlinkSync(this.abs(current));
        else this.displace(current);
      }
      mkdirSync(this.abs(current));
    }
  }

  /** True when every parent of `rel` is a real directory (nothing to do through a link); each is opened to its owner. */
  private realParents(rel: string): boolean {
    const parts = rel.split('/');
    let current = '';
    for (const part of parts.slice(0, -1)) {
      current = current ? `${current}/${part}` : part;
      const st = lstatOrNull(this.abs(current));
      if (!st?.isDirectory()) return false;
      this.reopen(current, st);
    }
    return true;
  }

  /** Writes a file (or a symlink) with exactly these bytes and permission bits. */
  writeFile(rel: string, content: Buffer, perm: number, symlink: boolean): void {
    const slash = rel.lastIndexOf('/');
    const parent = slash === -1 ? '' : rel.slice(0, slash);
    this.ensureDir(parent);
    const current = lstatOrNull(this.abs(rel));
    if (current?.isDirectory()) this.displace(rel);
    const tmp = `${parent ? `${parent}/` : ''}.ralph-restore-${process.pid}-${Math.random().toString(36).slice(2)}`;
    if (symlink) {
      symlinkSync(content, this.abs(tmp));
    } else {
      const fd = openSync(this.abs(tmp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        for (let off = 0; off < content.length;) off += writeSync(fd, content, off, content.length - off);
        fchmodSync(fd, perm);
      } finally {
        closeSync(fd);
      }
    }
    try {
      renameSync(this.abs(tmp), this.abs(rel));
    } catch (error) {
      try {
        unlinkSync(this.abs(tmp));
      } catch {
        // Already gone.
      }
      throw error;
    }
  }

  /** Sets exact permission bits on a regular file reached without links. */
  chmod(rel: string, perm: number): void {
    if (!this.realParents(rel)) return;
    const fd = openSync(this.abs(rel), constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      fchmodSync(fd, perm);
    } finally {
      closeSync(fd);
    }
  }

  /** Deletes a file or a link (never a directory); false when it was not there or not reachable without a link. */
  remove(rel: string): boolean {
    if (!this.realParents(rel)) return false;
    const st = lstatOrNull(this.abs(rel));
    if (!st || st.isDirectory()) return false;
    unlinkSync(this.abs(rel));
    return true;
  }

  mkdirs(rel: string): void {
    this.ensureDir(rel);
  }

  /** Removes `rel` and then its parents while they are empty, never the root; false when it was not empty. */
  removeEmptyDir(rel: string, keep: (dir: string) => boolean): void {
    for (let dir = rel; dir !== '' && !keep(dir); dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '') {
      if (!this.realParents(dir) || !lstatOrNull(this.abs(dir))?.isDirectory()) return;
      try {
        rmdirSync(this.abs(dir));
      } catch {
        return;
      }
    }
  }
}

/** The absolute file-system path (as bytes) of `rel` under `root`. */
export function underRoot(root: string, rel: string): Buffer {
  return rel === '' ? Buffer.from(root) : Buffer.concat([Buffer.from(root), Buffer.from('/'), Buffer.from(rel, 'latin1')]);
}
