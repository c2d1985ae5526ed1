import { fenceMarkers, taskWithData, type DataKind } from '../../untrusted-text.js';
import { cleanTerminalText } from '../../verify-feedback.js';
import type { CiCheck } from './ci-checks.js';
import type { ReviewFeedback } from './review-feedback.js';

/**
 * The part of a follow-up round's task that says what CI and the reviewers
 * found: each failed check with its output (trimmed, so a long log cannot
 * crowd out the task), then the review feedback. All of it is written by
 * others — a CI log can carry anything a test printed — so it goes inside a
 * fence the agent is told to read as data.
 */
export const MAX_CHECK_CHARS = 3_000;
export const MAX_ANNOTATIONS = 20;
export const MAX_FEEDBACK_CHARS = 2_000;

const FEEDBACK_DATA: DataKind = { what: 'CI output and review comments written by others', contentOf: 'that output' };

/** The start and the end of long text (a log's cause is at either end), with what was cut said in the middle. */
export function trimMiddle(text: string, max: number): string {
  const clean = cleanTerminalText(text).trim();
  if (clean.length <= max) return clean;
  const head = Math.floor(max / 3);
  const tail = max - head;
  return `${clean.slice(0, head)}\n[... ${clean.length - max} characters cut ...]\n${clean.slice(-tail)}`;
}

function checkSection(check: CiCheck): string[] {
  const lines = [`### ${check.kind === 'status' ? 'Status' : 'Check'} "${check.name}": ${check.detail}`];
  let budget = MAX_CHECK_CHARS;
  for (const [label, value] of [
    ['Title', check.title],
    ['Summary', check.summary],
    ['Output', check.text],
  ] as const) {
    if (value === undefined || value.trim() === '' || budget <= 0) continue;
    const shown = trimMiddle(value, budget);
    budget -= shown.length;
    lines.push(shown.includes('\n') ? `${label}:\n${shown}` : `${label}: ${shown}`);
  }
  const notes = check.annotations ?? [];
  if (notes.length > 0) {
    lines.push('Annotations:', ...notes.slice(0, MAX_ANNOTATIONS).map((note) => `- ${trimMiddle(note, 300)}`));
    if (notes.length > MAX_ANNOTATIONS) lines.push(`- (${notes.length - MAX_ANNOTATIONS} more)`);
  }
  return lines;
}

function feedbackLine(item: ReviewFeedback): string {
  const who = item.kind === 'review' ? `Review by @${item.author} requesting changes` : `Comment by @${item.author}${item.where ? ` on ${item.where}` : ''}`;
  const body = trimMiddle(item.body, MAX_FEEDBACK_CHARS);
  return `- ${who}:${body === '' ? ' (no text)' : `\n${body.replace(/^/gm, '  ')}`}`;
}

export interface FollowPromptInput {
  /** The task of the item, as the first round had it. */
  task: string;
  round: number;
  maxRounds: number;
  commit: string;
  pullRequest: string;
  failed: readonly CiCheck[];
  feedback: readonly ReviewFeedback[];
  /** Drawn at random by the caller: the fence's marker lines. */
  nonce: string;
}

export function followUpTask(input: FollowPromptInput): string {
  const found: string[] = [];
  for (const check of input.failed) found.push(...checkSection(check), '');
  if (input.feedback.length > 0) found.push('### Review feedback', ...input.feedback.map(feedbackLine), '');
  const what = [
    input.failed.length > 0 ? `${input.failed.length} check${input.failed.length === 1 ? '' : 's'} failed` : undefined,
    input.feedback.length > 0 ? `reviewers left ${input.feedback.length} comment${input.feedback.length === 1 ? '' : 's'}` : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(' and ');
  return taskWithData(
    [
      input.task.trim(),
      '',
      `## Follow-up round ${input.round} of ${input.maxRounds}: the pull request needs more work`,
      '',
      `Your work is in the pull request ${input.pullRequest}. On its commit ${input.commit.slice(0, 12)}, ${what}.`,
      'Change the code so the checks pass and the feedback is addressed. Never delete, skip or weaken a test,',
      'and never mark one as expected to fail, to make a check pass: fix the code the test checks instead.',
    ],
    found.join('\n').trim(),
    fenceMarkers('CI-FEEDBACK', input.nonce),
    FEEDBACK_DATA,
  );
}
