/**
 * What `ralph --restore ID` does to branches, said before it does it. A
 * restore puts the checkpoint's branch back where it pointed then: commits made
 * on it since leave the branch (Ralph keeps them reachable, but a user who
 * does not know will think they are gone). Pure: the caller reads the refs.
 */
export interface RestoreMoveFacts {
  checkpointId: string;
  /** `refs/heads/<name>` HEAD was on at the checkpoint; null when it was detached. */
  checkpointBranch: string | null;
  /** The commit HEAD pointed at then; null on an unborn branch. */
  checkpointHead: string | null;
  /** Where that branch points now (null when it no longer exists). */
  branchTip: string | null;
  /** The branch HEAD is on now (`refs/heads/<name>`), null when detached. */
  currentBranch: string | null;
  /** Commits on the branch tip that the checkpoint's commit does not contain, newest first. */
  commitsLeft: ReadonlyArray<{ sha: string; subject: string }>;
}

const LISTED = 8;

function shortBranch(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

/** Whether the restore moves a branch over commits made after the checkpoint. */
export function restoreRewindsBranch(f: RestoreMoveFacts): boolean {
  return f.checkpointBranch !== null && f.branchTip !== null && f.commitsLeft.length > 0;
}

/** The warning shown before such a restore: which branch moves, which commits it leaves, how to keep them. */
export function describeRestoreMove(f: RestoreMoveFacts): string {
  if (!restoreRewindsBranch(f) || f.checkpointBranch === null || f.branchTip === null) return '';
  const branch = shortBranch(f.checkpointBranch);
  const n = f.commitsLeft.length;
  const lines = [
    `Restoring ${f.checkpointId} moves branch '${branch}' back to ${f.checkpointHead ? f.checkpointHead.slice(0, 12) : 'no commit at all (it had none yet)'}, leaving ${n} commit${n === 1 ? '' : 's'} made after the checkpoint:`,
    ...f.commitsLeft.slice(0, LISTED).map((c) => `  ${c.sha.slice(0, 12)} ${c.subject}`),
    ...(n > LISTED ? [`  … and ${n - LISTED} more`] : []),
  ];
  if (f.currentBranch !== f.checkpointBranch) {
    lines.push(`HEAD also switches from ${f.currentBranch ? `'${shortBranch(f.currentBranch)}'` : 'a detached HEAD'} to '${branch}'.`);
  }
  lines.push(
    `The restore keeps them reachable: Ralph first saves the present state under refs/ralph/attempts/ (listed by 'ralph --checkpoints').`,
    `To keep them on a branch of their own: git branch ${branch}-before-restore ${f.branchTip.slice(0, 12)}`,
  );
  return lines.join('\n');
}
