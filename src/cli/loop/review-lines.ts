import { agentDisplayName } from '../../backends/registry.js';
import type { ReviewEnd, ReviewStart } from '../../engine/loop-events.js';
import type { Logger } from '../../ports.js';

/** The terminal's lines of the reviewer pass (--review): the review starting, its verdict and findings, a write it was refused. */
export function presentReview(logger: Logger, e: ReviewStart | ReviewEnd): void {
  if (e.type === 'review.start') {
    logger.info(`🔎 Review ${e.review}: ${agentDisplayName(e.backend)} reviews the run, read-only, before it ends (${e.completion})`);
    return;
  }
  for (const refused of e.refused) logger.warn(`🛡️  The reviewer's tools refused it: ${refused}`);
  if (e.verdict === 'APPROVED') logger.success(`✅ Review ${e.review}: APPROVED`);
  else {
    const end = e.decision === 'stop' ? 'the loop stops' : 'the findings go to the next iteration';
    logger.warn(`📝 Review ${e.review}: CHANGES_REQUESTED (${e.rejectedInARow}/${e.maxRejected} in a row; ${end})`);
  }
  for (const finding of e.findings) logger.info(`   - ${finding}`);
}
