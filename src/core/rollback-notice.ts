/**
 * What the agent is told after Ralph undid its previous attempt. Without it the
 * agent "remembers" files and commits that are no longer there and builds on
 * them. Pure string builder for the next iteration's context.
 */
export interface RollbackFacts {
  /** The loop whose attempt was undone. */
  loop: number;
  checkpointId: string;
  /** Why the attempt counted as failed. */
  cause: 'verify_failed' | 'agent_failed';
  /** Files written back or removed (paths relative to the repository). */
  files: readonly string[];
  /** Where the undone attempt is kept (files and commits), if anything was kept. */
  attemptRef: string | null;
  /** The branch or HEAD was moved back: commits of the attempt left the branch. */
  headMoved: boolean;
}

const LISTED_FILES = 10;

export function formatRollbackNotice(f: RollbackFacts): string {
  const cause = f.cause === 'verify_failed' ? 'the verify command failed' : 'the agent call failed';
  const count = f.files.length;
  const shown = f.files.slice(0, LISTED_FILES).join(', ');
  const more = count > LISTED_FILES ? ` and ${count - LISTED_FILES} more` : '';
  const lines = [
    `## Your previous attempt was rolled back`,
    '',
    `Because ${cause} in loop #${f.loop}, Ralph restored checkpoint ${f.checkpointId} (the state before that loop). ` +
      (count > 0 ? `${count} file${count === 1 ? ' was' : 's were'} reverted: ${shown}${more}.` : 'No file content had to change.'),
  ];
  if (f.headMoved) {
    lines.push(`The commits you made in that loop are gone from the branch${f.attemptRef ? ` (kept under ${f.attemptRef}, not on any branch)` : ''}.`);
  }
  if (f.attemptRef) lines.push(`Your discarded work is kept under ${f.attemptRef}; do not restore it wholesale.`);
  lines.push('Start again from the files as they are now: do not assume the edits or commits of that attempt exist.');
  return lines.join('\n');
}
