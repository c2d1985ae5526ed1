/**
 * Why a checkpoint could not be made, in words a user can act on. An iteration
 * that needs a checkpoint (a verify gate, rollback on failure) must not start
 * without one, so the caller shows `cause` and `fix` and stops.
 */
export type CheckpointProblem = 'index-locked' | 'unreadable-file' | 'git-failed' | 'not-a-repository';

export class CheckpointError extends Error {
  override name = 'CheckpointError';
  constructor(
    readonly problem: CheckpointProblem,
    /** What is wrong, plainly. */
    override readonly cause: string,
    /** What the user can do about it. */
    readonly fix: string,
  ) {
    super(`${cause} ${fix}`);
  }
}

/** The failure a checkpoint function returns: plain data, so it can cross the engine's port as is. */
export interface CheckpointFailure {
  ok: false;
  reason: string;
  problem?: CheckpointProblem;
  cause?: string;
  fix?: string;
}

export function checkpointFailure(error: CheckpointError): CheckpointFailure {
  return { ok: false, reason: error.message, problem: error.problem, cause: error.cause, fix: error.fix };
}

export function indexLockedError(lockPath: string): CheckpointError {
  return new CheckpointError(
    'index-locked',
    `Git's index is locked (${lockPath} exists): another git command is running, or one crashed and left its lock behind.`,
    'Wait for the other git command to finish; if none is running, delete that file and start again. Or run with --no-checkpoint to go on without a safety net.',
  );
}
