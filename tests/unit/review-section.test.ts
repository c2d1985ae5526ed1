import { describe, expect, it } from 'vitest';
import { emptyReview, type StatusDocument } from '../../src/core/status-model.js';
import { STATUS } from '../../src/state/documents/status.js';
import { reviewSection } from '../../src/ui/review-section.js';
import type { Line } from '../../src/ui/styled-line.js';

const text = (lines: Line[]): string[] =>
  lines.map((line) =>
    line
      .map((p) => p.text)
      .join('')
      .trimEnd(),
  );
const doc = (review: StatusDocument['review']): StatusDocument => ({ ...STATUS.empty(0), review });

describe('the monitor’s Review section', () => {
  it('is absent without --review', () => {
    expect(reviewSection(doc(null))).toEqual([]);
  });

  it('says the reviewer, its reviews and cost, the verdict and the rejections in a row, before the first review too', () => {
    expect(text(reviewSection(doc(emptyReview('codex', 3))))).toEqual([
      '  Reviewer:    codex · 0 reviews · $0.0000',
      '  Verdict:     not reviewed yet · 0/3 rejected in a row',
    ]);
  });

  it('lists the findings of the last review, five at most', () => {
    const findings = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const lines = text(
      reviewSection(doc({ ...emptyReview('claude', 3), reviews: 2, rejected_in_a_row: 2, last_verdict: 'CHANGES_REQUESTED', findings, cost_usd: 0.04 })),
    );
    expect(lines.slice(0, 3)).toEqual([
      '  Reviewer:    claude · 2 reviews · $0.0400',
      '  Verdict:     CHANGES_REQUESTED · 2/3 rejected in a row',
      '               - a',
    ]);
    expect(lines).toHaveLength(2 + 5 + 1);
    expect(lines.at(-1)).toBe('               … 2 more findings');
  });
});
