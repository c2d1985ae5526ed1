/**
 * When an iteration must not start without a git checkpoint, and what Ralph
 * says when it cannot make one. Pure: the caller knows the settings and the
 * reason git gave.
 */
export interface CheckpointNeed {
  /** Checkpoints are on for this run (explicitly, or because a verify command is set in a git repo). */
  checkpoint: boolean;
  /** A failed attempt is to be rolled back to the checkpoint. */
  rollbackOnFail: boolean;
  /** The verify gate will judge this iteration (set and not skipped). */
  gateActive: boolean;
  /** A verify command is configured at all. */
  hasCommand: boolean;
}

/**
 * An iteration needs its checkpoint when a failure would be rolled back to it,
 * when the verify gate judges the work (a failed attempt must stay undoable),
 * or when the user asked for checkpoints without a gate. Checkpoints kept only
 * as backups (--backup) are a convenience: missing one is worth a warning, not
 * a stop.
 */
export function checkpointRequired(need: CheckpointNeed): boolean {
  if (need.rollbackOnFail) return true;
  if (!need.checkpoint) return false;
  return need.gateActive || !need.hasCommand;
}

/** The stop message when a needed checkpoint could not be made: the cause, then the fix. */
export function describeMissingCheckpoint(loop: number, reason: string, rollbackOnFail: boolean): string {
  const risk = rollbackOnFail ? 'a failed attempt could not be rolled back' : 'a failed attempt could not be undone';
  return [
    `Loop #${loop} was not started: Ralph could not make a git checkpoint (${reason}), and without one ${risk}.`,
    "Fix the cause and run 'ralph' again, or run with --no-checkpoint to accept the risk of running without checkpoints.",
  ].join(' ');
}
