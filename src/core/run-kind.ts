import { sha256Hex } from './sha256.js';

/**
 * What a run was, as its run file records it, so that only the same kind of run resumes it after
 * a crash: `plan` for a plain `ralph` (the fix plan), `task:<digest>` for `ralph run '<task>'`
 * (a digest of the task text: the run file holds no task text). A crashed `ralph run` is not
 * continued by a plain `ralph`, nor by a `ralph run` of another task, nor the other way round.
 */
export type RunKind = string;

export const PLAN_RUN: RunKind = 'plan';
const TASK_PREFIX = 'task:';
/** The form a run file may hold; anything else is read as no kind at all. */
export const RUN_KIND_PATTERN = /^(?:plan|task:[0-9a-f]{16})$/;

export function runKindOf(task: string | undefined): RunKind {
  return task ? `${TASK_PREFIX}${sha256Hex(task).slice(0, 16)}` : PLAN_RUN;
}

/** How a run of this kind was started, in the words of its command line. */
export function describeRunKind(kind: RunKind | null): string {
  if (kind === null) return 'a run of an earlier Ralph that did not record what it ran';
  return kind.startsWith(TASK_PREFIX) ? "`ralph run '<task>'`" : 'a plain `ralph` (the fix plan)';
}

/** Why a crashed run of kind `was` is not resumed by a start of kind `now`, in one clause. */
export function otherRunReason(was: RunKind | null, now: RunKind): string {
  if (was !== null && was.startsWith(TASK_PREFIX) && now.startsWith(TASK_PREFIX)) return 'it was a `ralph run` of another task';
  return `it was ${describeRunKind(was)}, this is ${describeRunKind(now)}`;
}
