/**
 * One running queue item's loop as the monitor, the dashboard and `ralph queue status` show it:
 * the facts its worktree's status.json and progress.json hold, already read.
 */
export interface RunningLoopView {
  id: string;
  title: string;
  branch: string | undefined;
  /** The loop's iteration, 0 before the first. */
  loop: number;
  /** status.json's status (running, paused, …), or "starting". */
  state: string;
  costUsd: number;
  costEstimated: boolean;
  lastAction: string;
  /** With --follow-checks: the pull request's round and checks. */
  follow?: string;
}
