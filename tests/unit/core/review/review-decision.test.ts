import { describe, expect, it } from 'vitest';
import { decideReview, emptyReviewTally, reviewFindingsSection } from '../../../../src/core/review/review-decision.js';
import type { ReviewVerdict } from '../../../../src/core/review/review-verdict.js';

const approved: ReviewVerdict = { verdict: 'APPROVED', findings: [], given: true };
const rejected = (...findings: string[]): ReviewVerdict => ({ verdict: 'CHANGES_REQUESTED', findings, given: true });

describe('decideReview', () => {
  it.each([
    ['approved ends the loop', { reviews: 0, rejectedInARow: 0 }, approved, 3, { kind: 'end' }, { reviews: 1, rejectedInARow: 0 }],
    ['approved after rejections resets the count', { reviews: 2, rejectedInARow: 2 }, approved, 3, { kind: 'end' }, { reviews: 3, rejectedInARow: 0 }],
    [
      'a first rejection goes on with its findings',
      { reviews: 0, rejectedInARow: 0 },
      rejected('a', 'b'),
      3,
      { kind: 'continue', findings: ['a', 'b'] },
      { reviews: 1, rejectedInARow: 1 },
    ],
    [
      'the max-th rejection in a row stops',
      { reviews: 2, rejectedInARow: 2 },
      rejected('c'),
      3,
      { kind: 'stop', findings: ['c'] },
      { reviews: 3, rejectedInARow: 3 },
    ],
    [
      '--review-max 1 stops at the first rejection',
      { reviews: 0, rejectedInARow: 0 },
      rejected('d'),
      1,
      { kind: 'stop', findings: ['d'] },
      { reviews: 1, rejectedInARow: 1 },
    ],
    [
      'rejections that were not in a row do not stop',
      { reviews: 5, rejectedInARow: 1 },
      rejected('e'),
      3,
      { kind: 'continue', findings: ['e'] },
      { reviews: 6, rejectedInARow: 2 },
    ],
  ])('%s', (_name, tally, verdict, max, decision, next) => {
    expect(decideReview(tally, verdict, max)).toEqual({ tally: next, decision });
  });

  it('starts from nothing', () => {
    expect(emptyReviewTally()).toEqual({ reviews: 0, rejectedInARow: 0 });
  });
});

describe('reviewFindingsSection', () => {
  it('carries every finding line verbatim, and the word REVIEW', () => {
    const text = reviewFindingsSection(['add a test for empty input', 'handle `EOF` in read()']);
    expect(text).toContain('REVIEW');
    expect(text.split('\n')).toEqual(expect.arrayContaining(['- add a test for empty input', '- handle `EOF` in read()']));
  });
});
