import { newReviewFeedback, type ReviewFeedback } from '../../core/queue/follow/review-feedback.js';
import { errorMessage } from '../../errors.js';
import type { GithubClient } from './github/github-client.js';

/**
 * `--follow-reviews`: the review feedback on the pull request Ralph has not
 * acted on yet, and, once a round's commit is pushed, a reply to each line
 * comment it acted on naming that commit (a review that requested changes
 * has no thread to reply in: it gets a comment on the pull request).
 */
export interface ReviewState {
  /** When the pull request was opened: feedback from before is not this pull request's. */
  since: string;
  /** Comments and reviews acted on, and Ralph's own replies. */
  handled: Set<number>;
}

export async function readReviewFeedback(client: GithubClient, pullNumber: number, state: ReviewState): Promise<ReviewFeedback[]> {
  const [comments, reviews] = await Promise.all([client.listReviewComments(pullNumber), client.listReviews(pullNumber)]);
  return newReviewFeedback({ comments, reviews, since: state.since, handled: state.handled });
}

export async function answerFeedback(
  client: GithubClient,
  pullNumber: number,
  feedback: readonly ReviewFeedback[],
  commit: string,
  state: ReviewState,
  notice: (message: string) => void,
): Promise<void> {
  for (const item of feedback) {
    state.handled.add(item.id);
    const body = `Ralph pushed ${commit} for this ${item.kind === 'review' ? `review by @${item.author}` : 'comment'}.`;
    try {
      if (item.kind === 'comment') state.handled.add((await client.replyToReviewComment(pullNumber, item.id, body)).id);
      else await client.commentOnIssue(pullNumber, body);
    } catch (error) {
      notice(`could not reply to ${item.kind} ${item.id} on pull request #${pullNumber}: ${errorMessage(error)}`);
    }
  }
}
