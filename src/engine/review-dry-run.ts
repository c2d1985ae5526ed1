import type { AgentRequest } from '../ports.js';
import type { LoopRun } from './loop-run.js';

/**
 * --dry-run --review: what the reviewer's call would be, beside the worker's. The request is the
 * one reviewBeforeEnd makes (read-only, a fresh session, no loop context, no live view), with a
 * placeholder for the prompt, which only a real run can build (it holds the run's diff).
 */
export function describeReviewCall(s: LoopRun, worker: AgentRequest): void {
  const review = s.deps.review;
  if (!review || s.reviewDescribed) return;
  s.reviewDescribed = true;
  const { backend } = review;
  const request: AgentRequest = {
    ...worker,
    prompt: '<the review prompt: the task, the run diff, the last verify output>',
    loopContext: '',
    live: false,
    readOnly: true,
  };
  s.notice({
    code: 'dry_run.review',
    backend: backend.displayName,
    model: review.model ?? null,
    readOnly: review.readOnlyMode ?? null,
    maxRejected: s.config.reviewMax,
  });
  s.notice({ code: 'dry_run.review_command', description: backend.describe(request) });
}
