import { describeCost } from './cost-display.js';
import { otherRunReason, type RunKind } from './run-kind.js';
import { runTokens } from './token-budget.js';
import type { StatusReview, StatusTotals } from './status-model.js';
import { sumReceipts, type Receipt } from './receipt.js';

/**
 * Whether a loop starting now continues the run before it, and with what counters. Pure: the
 * caller reads the files (the run file a dead loop left behind, status.json, the receipts) and
 * checks whether the process the run file names still runs (PID and start time, never the PID
 * alone).
 *
 * A run ended cleanly when its loop removed the run file, or when status.json written by that
 * process holds an exit code (it finished, or was forced out and said so). Anything else whose
 * process is gone is a crash (kill -9, power loss, a closed lid): the next loop resumes it.
 */
export interface ResumeInputs {
  /** --fresh or RALPH_FRESH=1. */
  fresh: boolean;
  /** The run file a loop left behind, if its process is gone; undefined when there is none (or it still runs). */
  leftBehind: { pid: number; runId: string | null; kind: RunKind | null } | undefined;
  /** What this start is (core/run-kind.ts): only a run of the same kind is resumed. */
  kind: RunKind;
  /** What status.json says, if it can be read. */
  status: { pid: number | null; loop_count: number; exit_code: number | null; review?: StatusReview | null } | undefined;
  receipts: readonly Receipt[];
}

export type ResumeDecision =
  | { kind: 'new'; why: 'fresh' | 'clean_end' | 'nothing_to_resume' }
  /** A crashed run of another kind (a `ralph run` task, the fix plan): not this start's to continue. */
  | { kind: 'new'; why: 'other_run'; runId: string; reason: string }
  | {
      kind: 'resume';
      runId: string;
      /** The loop the crash cut short (its logs stay under their own names); the run goes on with the next. */
      crashedAt: number;
      totals: StatusTotals;
      receipts: number;
      /** The agent session of the last receipt, for the message; the session store decides whether it is resumed. */
      sessionId: string | null;
      /** The reviewer pass as the crashed run's status.json last showed it (its reviews and rejections in a row); null without one. */
      review: StatusReview | null;
    };

export function decideResume(input: ResumeInputs): ResumeDecision {
  const { leftBehind, status } = input;
  if (leftBehind === undefined) return { kind: 'new', why: 'clean_end' };
  if (input.fresh) return { kind: 'new', why: 'fresh' };
  const statusOfRun = status !== undefined && status.pid === leftBehind.pid ? status : undefined;
  if (statusOfRun !== undefined && statusOfRun.exit_code !== null) return { kind: 'new', why: 'clean_end' };
  // A run file of a version without run ids cannot be matched to receipts: nothing is counted twice.
  if (leftBehind.runId === null) return { kind: 'new', why: 'nothing_to_resume' };
  const runId = leftBehind.runId;
  if (leftBehind.kind !== input.kind) return { kind: 'new', why: 'other_run', runId, reason: otherRunReason(leftBehind.kind, input.kind) };
  const mine = input.receipts.filter((r) => r.run_id === runId);
  const lastReceiptLoop = mine.reduce((max, r) => Math.max(max, r.loop), 0);
  const crashedAt = Math.max(lastReceiptLoop, statusOfRun?.loop_count ?? 0);
  if (crashedAt === 0) return { kind: 'new', why: 'nothing_to_resume' };
  return {
    kind: 'resume',
    runId,
    crashedAt,
    totals: sumReceipts(mine),
    receipts: mine.length,
    sessionId: mine.length > 0 ? (mine[mine.length - 1]?.session_id ?? null) : null,
    review: statusOfRun?.review ?? null,
  };
}

/** The one line a resumed run starts with. */
export function describeResume(d: Extract<ResumeDecision, { kind: 'resume' }>, extra: { callsThisHour: number; circuit: string }): string {
  const t = d.totals;
  const cost = describeCost({ usd: t.cost_usd, estimated: t.cost_estimated, unknownCalls: t.cost_unknown_calls });
  // Counted as --max-tokens counts them: cache reads and writes included.
  const tokens = runTokens(t);
  const session = d.sessionId !== null ? `, agent session ${d.sessionId}` : '';
  const review =
    d.review && d.review.reviews > 0
      ? `, ${d.review.reviews} review${d.review.reviews === 1 ? '' : 's'} (${d.review.rejected_in_a_row} rejected in a row)`
      : '';
  return (
    `Resuming run ${d.runId} after a crash at loop ${d.crashedAt}: ${cost} spent, ${tokens.toLocaleString('en-US')} tokens over ${d.receipts} receipt${d.receipts === 1 ? '' : 's'}` +
    `, ${extra.callsThisHour} call${extra.callsThisHour === 1 ? '' : 's'} this hour, circuit ${extra.circuit}${review}${session}. ` +
    `The next loop is ${d.crashedAt + 1}; ralph --fresh starts a new run instead.`
  );
}
