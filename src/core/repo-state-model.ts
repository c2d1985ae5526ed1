/**
 * The state of a Ralph project's repository that an agent can change, read
 * without changing anything: the project directory's files as raw bytes with
 * their exact permission bits, its empty directories, the raw index file, HEAD,
 * every ref, the stash reflog (the user's stash entries) and in-progress
 * operation state. Captured by src/checkpoints/capture/repo-state.ts, which
 * stores the files' contents as git objects on the way, so the state can be
 * committed right away; compared here and in the checkpoints' rollback.
 */

export interface FileEntry {
  /** Git's view: 100644, 100755, 120000 (symlink) or 160000 (submodule). */
  mode: string;
  oid: string;
  /** The exact permission bits (st_mode & 07777); 0 for symlinks and submodules. */
  perm: number;
}

export interface RefEntry {
  name: string;
  oid: string;
  /** The target of a symbolic ref, '' for a plain one. */
  symref: string;
  /** The commit a tag points at, or the ref's own commit; '' when it names no commit. */
  commit: string;
}

export interface OpFile {
  /** Relative to the git dir, '/'-separated. */
  path: string;
  perm: number;
  /** null for a directory. */
  content: Buffer | null;
}

export interface SubRepo {
  path: string;
  head: string | null;
}

export interface RepoState {
  /** Keys: binary paths relative to the project directory. */
  files: Map<string, FileEntry>;
  /** Empty directories (leaves), or null when not recorded. */
  emptyDirs: string[] | null;
  /** Repositories inside the project that are not submodules: recorded, never restored. */
  nested: SubRepo[];
  submodules: SubRepo[];
  /** The raw index file; null when there is none. */
  index: Buffer | null;
  /** The content of HEAD: `ref: refs/heads/main` or a commit id. */
  head: string;
  /** Every ref outside refs/ralph/, or null when not recorded. */
  refs: RefEntry[] | null;
  /** False when `refs` lists only some refs (checkpoints of older versions): others are left alone, and so is the stash. */
  refsComplete: boolean;
  /** The stash's reflog file (its entries); null when there is no stash. */
  stashLog: Buffer | null;
  /** Merge/rebase/cherry-pick/revert/bisect files in the git dir, or null when not recorded. */
  opState: OpFile[] | null;
  /** Blob ids the index refers to, in the index's order (listed with the checkpoint when the index has no tree; not compared). */
  indexObjects: readonly string[];
  /**
   * In a project below the top of its repository: a digest of the index entries
   * inside the project, which is what a rollback restores there (the rest of
   * the index belongs to the user's other work). Empty at the top.
   */
  indexView: string;
}
