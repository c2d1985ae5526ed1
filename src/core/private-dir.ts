/**
 * Whether a directory is private enough to hold things Ralph later deletes:
 * a real directory (not a symlink someone could point elsewhere), owned by the
 * user running Ralph, and closed to group and others. Anything less lets
 * another local user plant files there that steer a delete or a run.
 */

export interface DirFacts {
  isSymbolicLink: boolean;
  isDirectory: boolean;
  /** Owner uid; undefined where the platform has no uids. */
  uid: number | undefined;
  mode: number;
}

/** What makes `path` unfit as a private directory, or undefined when it is fine. */
export function privateDirProblem(path: string, facts: DirFacts, myUid: number | undefined): string | undefined {
  if (facts.isSymbolicLink) return `${path} is a symbolic link; a private directory must be a real one`;
  if (!facts.isDirectory) return `${path} is not a directory`;
  if (myUid !== undefined && facts.uid !== undefined && facts.uid !== myUid) return `${path} belongs to another user (uid ${facts.uid}, you are uid ${myUid})`;
  const open = facts.mode & 0o077;
  if (open !== 0) return `${path} is open to other users (mode ${(facts.mode & 0o777).toString(8).padStart(3, '0')}; it must be 700)`;
  return undefined;
}
