/**
 * Which review feedback on a pull request Ralph has not acted on yet: line
 * comments and reviews that request changes, written since the pull request
 * was opened, minus what an earlier round acted on and minus Ralph's own
 * replies. Pure; the caller fetches the lists and keeps the handled ids.
 */
export interface RawReviewComment {
  id: number;
  body: string;
  path?: string | null;
  line?: number | null;
  original_line?: number | null;
  created_at: string;
  in_reply_to_id?: number;
  user?: { login?: string } | null;
}

export interface RawReview {
  id: number;
  state: string;
  body?: string | null;
  submitted_at?: string | null;
  user?: { login?: string } | null;
}

export interface ReviewFeedback {
  kind: 'comment' | 'review';
  id: number;
  author: string;
  body: string;
  /** `src/a.ts:12` for a line comment. */
  where?: string;
}

export interface FeedbackInput {
  comments: readonly RawReviewComment[];
  reviews: readonly RawReview[];
  /** ISO time the pull request was opened (its first push). */
  since: string;
  /** Ids of comments and reviews acted on, and of Ralph's own replies. */
  handled: ReadonlySet<number>;
}

const after = (time: string | null | undefined, since: number): boolean => {
  const at = Date.parse(time ?? '');
  return Number.isFinite(at) && at >= since;
};

export function newReviewFeedback(input: FeedbackInput): ReviewFeedback[] {
  const since = Date.parse(input.since);
  const fresh: ReviewFeedback[] = [];
  for (const comment of input.comments) {
    if (input.handled.has(comment.id) || !after(comment.created_at, since) || comment.body.trim() === '') continue;
    const line = comment.line ?? comment.original_line;
    const where = comment.path ? `${comment.path}${line ? `:${line}` : ''}` : undefined;
    fresh.push({ kind: 'comment', id: comment.id, author: comment.user?.login ?? 'someone', body: comment.body, ...(where ? { where } : {}) });
  }
  for (const review of input.reviews) {
    if (review.state !== 'CHANGES_REQUESTED' || input.handled.has(review.id) || !after(review.submitted_at, since)) continue;
    fresh.push({ kind: 'review', id: review.id, author: review.user?.login ?? 'someone', body: review.body ?? '' });
  }
  return fresh;
}
