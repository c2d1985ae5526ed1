import { describe, expect, it } from 'vitest';
import { newReviewFeedback, type RawReview, type RawReviewComment } from '../../../../../src/core/queue/follow/review-feedback.js';

const SINCE = '2026-01-01T10:00:00Z';
const comment = (id: number, at: string, extra: Partial<RawReviewComment> = {}): RawReviewComment => ({
  id,
  body: `comment ${id}`,
  created_at: at,
  user: { login: 'ann' },
  ...extra,
});
const review = (id: number, state: string, at: string): RawReview => ({ id, state, body: `review ${id}`, submitted_at: at, user: { login: 'bob' } });

describe('newReviewFeedback', () => {
  it.each<[string, RawReviewComment[], RawReview[], number[], number[]]>([
    ['a comment after the pull request opened', [comment(1, '2026-01-01T10:05:00Z', { path: 'a.ts', line: 3 })], [], [], [1]],
    ['a comment from before is not this pull request', [comment(1, '2026-01-01T09:59:59Z')], [], [], []],
    ['a comment acted on already', [comment(1, '2026-01-01T10:05:00Z')], [], [1], []],
    ["Ralph's own reply", [comment(2, '2026-01-01T10:06:00Z', { in_reply_to_id: 1 })], [], [2], []],
    ["a reviewer's answer in the thread is new", [comment(3, '2026-01-01T10:07:00Z', { in_reply_to_id: 1 })], [], [1, 2], [3]],
    ['an empty comment', [comment(1, '2026-01-01T10:05:00Z', { body: '  ' })], [], [], []],
    ['a review requesting changes', [], [review(9, 'CHANGES_REQUESTED', '2026-01-01T10:05:00Z')], [], [9]],
    ['an approval is no feedback', [], [review(9, 'APPROVED', '2026-01-01T10:05:00Z')], [], []],
    ['a plain review comment is no change request', [], [review(9, 'COMMENTED', '2026-01-01T10:05:00Z')], [], []],
    ['a change request acted on', [], [review(9, 'CHANGES_REQUESTED', '2026-01-01T10:05:00Z')], [9], []],
  ])('%s', (_, comments, reviews, handled, ids) => {
    expect(newReviewFeedback({ comments, reviews, since: SINCE, handled: new Set(handled) }).map((f) => f.id)).toEqual(ids);
  });

  it('says who wrote it and where', () => {
    const [found] = newReviewFeedback({
      comments: [comment(1, '2026-01-01T10:05:00Z', { path: 'a.ts', line: 3 })],
      reviews: [],
      since: SINCE,
      handled: new Set(),
    });
    expect(found).toEqual({ kind: 'comment', id: 1, author: 'ann', body: 'comment 1', where: 'a.ts:3' });
  });
});
