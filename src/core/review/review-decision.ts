import type { ReviewVerdict } from './review-verdict.js';

/** The reviews of one run so far. */
export interface ReviewTally {
  /** Reviews made (each one agent call). */
  reviews: number;
  /** Reviews in a row that asked for changes; an approval sets it back to zero. */
  rejectedInARow: number;
}

/**
 * What a verdict does to a loop that would have ended complete: `end` (approved: it ends
 * complete), `continue` (the findings go to the next worker call), or `stop` (this was the
 * `maxRejected`-th rejection in a row: the loop stops with review_rejected).
 */
export type ReviewDecision = { kind: 'end' } | { kind: 'continue'; findings: string[] } | { kind: 'stop'; findings: string[] };

export function emptyReviewTally(): ReviewTally {
  return { reviews: 0, rejectedInARow: 0 };
}

export function decideReview(tally: ReviewTally, verdict: ReviewVerdict, maxRejected: number): { tally: ReviewTally; decision: ReviewDecision } {
  const reviews = tally.reviews + 1;
  if (verdict.verdict === 'APPROVED') return { tally: { reviews, rejectedInARow: 0 }, decision: { kind: 'end' } };
  const rejectedInARow = tally.rejectedInARow + 1;
  const next = { reviews, rejectedInARow };
  if (rejectedInARow >= Math.max(1, maxRejected)) return { tally: next, decision: { kind: 'stop', findings: verdict.findings } };
  return { tally: next, decision: { kind: 'continue', findings: verdict.findings } };
}

/** The section of the worker's prompt after a rejected review: every finding line, verbatim. */
export function reviewFindingsSection(findings: readonly string[]): string {
  return [
    'A REVIEW of your work asked for changes before the work can count as done. Address every finding below,',
    'then end your answer with the status block as usual:',
    ...findings.map((f) => `- ${f}`),
  ].join('\n');
}
