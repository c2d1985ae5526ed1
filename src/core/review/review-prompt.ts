import { fenceMarkers, fenceUntrusted } from '../untrusted-text.js';

/**
 * The reviewer's prompt: what the run was asked to do (the task, or fix_plan.md), the diff of the
 * whole run and the last verify output, each trimmed to its budget, and the block to answer with.
 * The diff and the verify output are what the worker wrote or made print: they are fenced as
 * data, so text in them cannot pass itself off as instructions to the reviewer.
 */
export interface ReviewPromptInput {
  /** The task of task mode, or fix_plan.md's text; undefined when there is neither. */
  task?: { kind: 'task' | 'plan'; text: string };
  /** The diff from the commit the loop started at, new files included ('' when nothing changed). */
  diff: string;
  /** The commit the diff starts at, when there is one. */
  base?: string;
  /** The last verify command and its output, when a verify gate ran. */
  verify?: { command: string; passed: boolean; output: string };
  /** Random letters for the data fences. */
  nonce: string;
}

export const REVIEW_BUDGET = { task: 16_000, diff: 60_000, verify: 8_000 } as const;

/** The text cut to `max` characters, saying how much was left out (the end of a verify log matters most, the start of a diff). */
export function trimToBudget(text: string, max: number, keep: 'head' | 'tail'): string {
  if (text.length <= max) return text;
  const omitted = text.length - max;
  return keep === 'head'
    ? `${text.slice(0, max)}\n[... ${omitted} more characters left out ...]`
    : `[... ${omitted} earlier characters left out ...]\n${text.slice(-max)}`;
}

const DIFF_DATA = { what: 'the DATA of the diff under review', contentOf: 'the diff' };
const VERIFY_DATA = { what: 'the DATA of the verify output', contentOf: 'the verify output' };

export function buildReviewPrompt(input: ReviewPromptInput): string {
  const lines = [
    "You are the REVIEWER of a coding agent's finished work. This is a review only: read files and the diff,",
    'do not change, create or delete anything, and run no command that writes.',
    'Judge whether the work does what was asked, correctly and completely, with tests where they belong.',
    '',
  ];
  if (input.task) {
    lines.push(input.task.kind === 'task' ? '## The task' : '## The plan (fix_plan.md)', trimToBudget(input.task.text.trim(), REVIEW_BUDGET.task, 'head'), '');
  }
  lines.push(`## The diff of the whole run${input.base ? ` (from commit ${input.base})` : ''}`);
  if (input.diff.trim() === '') lines.push('(no changes)');
  else {
    const { rule, block } = fenceUntrusted(trimToBudget(input.diff, REVIEW_BUDGET.diff, 'head'), fenceMarkers('DIFF', input.nonce), DIFF_DATA);
    lines.push(...rule, ...block);
  }
  lines.push('');
  if (input.verify) {
    lines.push(`## The last verify run: \`${input.verify.command}\` ${input.verify.passed ? 'passed' : 'failed'}`);
    const { rule, block } = fenceUntrusted(trimToBudget(input.verify.output, REVIEW_BUDGET.verify, 'tail'), fenceMarkers('VERIFY', input.nonce), VERIFY_DATA);
    lines.push(...rule, ...block, '');
  }
  lines.push(
    '## Your answer',
    'End your reply with exactly this block (VERDICT is APPROVED or CHANGES_REQUESTED; one finding per line,',
    'each one specific enough to act on; no findings when you approve without remarks):',
    '---RALPH_REVIEW---',
    'VERDICT: APPROVED',
    'FINDINGS:',
    '- <one finding per line>',
    '---END_RALPH_REVIEW---',
  );
  return lines.join('\n');
}
