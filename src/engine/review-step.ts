import type { AgentProgress, AgentResult } from '../agent-result.js';
import { EXIT_REASONS, isCompletionReason } from '../core/exit-reasons.js';
import { checkCall, recordCallStart } from '../core/rate-limiter.js';
import { decideReview } from '../core/review/review-decision.js';
import { buildReviewPrompt, type ReviewPromptInput } from '../core/review/review-prompt.js';
import { NO_VERDICT_FINDING, parseReviewReply, type ReviewVerdict } from '../core/review/review-verdict.js';
import { emptyReview } from '../core/status-model.js';
import { digestText } from '../core/text-digest.js';
import { addCallUsage } from './iteration-record.js';
import { waitForCallBudget } from './limit-handlers.js';
import type { LoopRun, Step } from './loop-run.js';
import type { ReviewPort } from './ports.js';

/**
 * The reviewer pass (--review). When a step would end the loop complete, one more agent call
 * comes first: the reviewer, in a fresh read-only session, reads the task, the run's diff and the
 * last verify output and gives a verdict. APPROVED lets the loop end as it would have;
 * CHANGES_REQUESTED sends the findings to the next worker call and the loop goes on, until
 * --review-max rejections in a row stop it (review_rejected). Only this call's reply is read
 * for a verdict: a review block in the worker's own output counts for nothing.
 */
export async function reviewBeforeEnd(s: LoopRun, step: Step, reserved = false): Promise<Step> {
  const review = s.deps.review;
  // A dry run makes no agent call: it describes the reviewer's instead (review-dry-run.ts).
  if (!review || !step || !isCompletionReason(step.stop) || s.options.dryRun) return step;
  // A call's place in a shared budget claimed before the loop found its plan complete is the review's:
  // claiming another would count this one call twice.
  const budget = await claimCall(s, reserved);
  if (budget) return budget;
  const state = (s.state.review ??= emptyReview(review.backend.name, s.config.reviewMax));
  const number = state.reviews + 1;
  const loop = s.state.loop;
  s.state.rate = recordCallStart(s.state.rate, s.now, s.deps.store.nextCallId?.());
  s.deps.store.saveRate(s.state.rate);
  await s.deps.store.settleSharedRate?.();
  s.state.totals.calls += 1;
  s.setAction('reviewing', 'running', `Loop #${loop}: review ${number} by ${review.backend.displayName}`);
  s.emit({ type: 'review.start', iteration: loop, review: number, backend: review.backend.name, completion: step.stop });

  const run = await review.backend.run(
    {
      loop,
      cwd: s.deps.store.paths.project,
      prompt: buildReviewPrompt(await promptInput(s, review)),
      loopContext: '',
      timeoutMs: s.config.timeoutMinutes * 60_000,
      outputLogPath: s.deps.store.newOutputLogPath(loop, s.now),
      // --live streams the reviewer's output like the worker's, through the same live view (redacted).
      live: s.config.live,
      ...(s.config.live ? { onProgress: (event: AgentProgress) => s.emit({ type: 'call.progress', iteration: loop, event }) } : {}),
      readOnly: true,
    },
    s.deps.interrupt,
  );
  s.deps.store.pruneOutputLogs();
  addCallUsage(s, run);
  state.cost_usd += run.cost?.usd ?? 0;
  state.input_tokens += run.usage?.inputTokens ?? 0;
  state.output_tokens += run.usage?.outputTokens ?? 0;
  if (run.outcome.kind === 'interrupted' || s.deps.interrupt.aborted) return { stop: 'interrupted' };
  if (run.outcome.kind === 'fatal' || run.outcome.kind === 'unrecoverable') {
    return { stop: 'agent_failure', message: `the reviewer (${review.backend.displayName}) could not be run: ${run.outcome.message}` };
  }

  const verdict = verdictOf(run);
  const { tally, decision } = decideReview({ reviews: state.reviews, rejectedInARow: state.rejected_in_a_row }, verdict, s.config.reviewMax);
  state.reviews = tally.reviews;
  state.rejected_in_a_row = tally.rejectedInARow;
  state.last_verdict = verdict.verdict;
  state.findings = [...verdict.findings];
  s.emit({
    type: 'review.end',
    iteration: loop,
    review: number,
    backend: review.backend.name,
    verdict: verdict.verdict,
    given: verdict.given,
    findings: verdict.findings,
    decision: decision.kind,
    rejectedInARow: tally.rejectedInARow,
    maxRejected: s.config.reviewMax,
    refused: run.permissionDenials.map((d) => (d.detail ? `${d.tool}: ${d.detail}` : d.tool)),
    run,
  });
  switch (decision.kind) {
    case 'end':
      s.publish();
      return { stop: step.stop, message: `${step.message ?? EXIT_REASONS[step.stop].describe}; the reviewer approved (review ${number})` };
    case 'continue':
      s.state.reviewFindings = decision.findings;
      s.setAction('review_changes_requested', 'running', `Loop #${loop}: the reviewer asked for changes (${tally.rejectedInARow}/${s.config.reviewMax})`);
      return undefined;
    case 'stop':
      return {
        stop: 'review_rejected',
        message: [
          `the reviewer asked for changes ${tally.rejectedInARow} times in a row (--review-max ${s.config.reviewMax}); its last findings:`,
          ...decision.findings.map((f) => `- ${f}`),
        ].join('\n'),
      };
  }
}

/** The verdict of the reviewer's call: a call that did not finish gave none. */
function verdictOf(run: AgentResult): ReviewVerdict {
  if (run.outcome.kind === 'success') return parseReviewReply(digestText(run.text));
  return { verdict: 'CHANGES_REQUESTED', findings: [`${NO_VERDICT_FINDING} (its call ended: ${run.outcome.kind})`], given: false };
}

/**
 * The hourly budget has room for the review call (after a wait, if it must): the review counts like
 * any call. A place already reserved in the shared budget (by the checks before the call the complete
 * plan made unneeded) passed those same checks and is this call's.
 */
async function claimCall(s: LoopRun, reserved: boolean): Promise<Step> {
  const { store } = s.deps;
  const { config } = s;
  for (;;) {
    if (s.deps.interrupt.aborted) return { stop: 'interrupted' };
    if (reserved) return undefined;
    if (store.refreshRate) s.state.rate = store.refreshRate(s.state.rate);
    const permit = checkCall(s.state.rate, s.now, { maxCallsPerHour: config.maxCallsPerHour, maxTokensPerHour: config.maxTokensPerHour });
    if (!permit.ok) {
      const stop = await waitForCallBudget(s, permit);
      if (stop) return stop;
      continue;
    }
    if (store.reserveSharedCall && !(await store.reserveSharedCall(s.now, config.maxCallsPerHour))) continue;
    return undefined;
  }
}

/** What the reviewer is shown: the task (or the plan), the diff of the run, the last verify run. */
async function promptInput(s: LoopRun, review: ReviewPort): Promise<ReviewPromptInput> {
  const task = s.options.task;
  const plan = task ? undefined : review.planText();
  const { diff, base } = await review.runDiff();
  const last = s.deps.gate?.status()?.last;
  const command = s.deps.gate?.command;
  return {
    ...(task ? { task: { kind: 'task' as const, text: [task.text, ...task.criteria.map((c) => `- ${c}`)].join('\n') } } : {}),
    ...(plan ? { task: { kind: 'plan' as const, text: plan } } : {}),
    diff,
    ...(base ? { base } : {}),
    ...(last && command ? { verify: { command, passed: last.passed, output: last.output_tail } } : {}),
    nonce: Math.floor(s.deps.random.next() * 36 ** 8)
      .toString(36)
      .padStart(8, '0'),
  };
}
