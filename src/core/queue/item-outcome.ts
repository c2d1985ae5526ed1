import type { QueueResult } from './queue-item.js';

/**
 * How an item's loop ended, from what the loop left behind: its exit code and
 * the last status.json it wrote in its worktree. Exit 0 is the loop's
 * "completed"; every other code (a limit, an open circuit, a failed verify
 * gate, an error) leaves the item failed with the reason the loop gave.
 */
export interface LoopEnd {
  /** undefined when the loop was killed by a signal or could not start. */
  exitCode: number | undefined;
  signal?: string;
  /** Why the loop could not run at all (spawn failure). */
  failure?: string;
  /** From status.json, when the loop wrote one. */
  exitReason?: string;
  loops?: number;
  costUsd?: number;
  costEstimated?: boolean;
}

export interface ItemOutcome {
  state: 'completed' | 'failed';
  result: QueueResult;
}

export function decideItemOutcome(end: LoopEnd, branch: string): ItemOutcome {
  const result: QueueResult = { branch };
  if (end.exitReason !== undefined && end.exitReason !== '') result.exit_reason = end.exitReason;
  if (end.exitCode !== undefined) result.exit_code = end.exitCode;
  if (end.costUsd !== undefined) result.cost = end.costUsd;
  if (end.costEstimated === true) result.cost_estimated = true;
  if (end.loops !== undefined) result.iterations = end.loops;
  if (end.exitCode === 0) return { state: 'completed', result };
  result.error =
    end.failure ??
    (end.exitCode === undefined
      ? `the loop was killed${end.signal ? ` by ${end.signal}` : ''}`
      : `the loop ended with exit code ${end.exitCode}${result.exit_reason ? ` (${result.exit_reason})` : ''}`);
  return { state: 'failed', result };
}
