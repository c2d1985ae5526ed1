import { describe, expect, it } from 'vitest';
import { MAX_FINDING_CHARS, MAX_FINDINGS, parseReviewReply, REPLY_SCAN_CHARS } from '../../../../src/core/review/review-verdict.js';

const block = (...lines: string[]): string => ['---RALPH_REVIEW---', ...lines, '---END_RALPH_REVIEW---'].join('\n');

describe('parseReviewReply', () => {
  it.each([
    ['approved, no findings', `Looks good.\n${block('VERDICT: APPROVED', 'FINDINGS:')}`, { verdict: 'APPROVED', findings: [], given: true }],
    [
      'changes requested with findings, prose before and after',
      `I read the diff.\n${block('VERDICT: CHANGES_REQUESTED', 'FINDINGS:', '- add a test for empty input', '* handle EOF')}\nThanks!`,
      { verdict: 'CHANGES_REQUESTED', findings: ['add a test for empty input', 'handle EOF'], given: true },
    ],
    [
      'inside a markdown code fence, with bold markers',
      '```\n**---RALPH_REVIEW---**\n**VERDICT:** APPROVED\nFINDINGS:\n- nit: rename x\n---END_RALPH_REVIEW---\n```',
      { verdict: 'APPROVED', findings: ['nit: rename x'], given: true },
    ],
    [
      'quoted',
      `> ${block('VERDICT: CHANGES_REQUESTED', 'FINDINGS:', '- fix it').split('\n').join('\n> ')}`,
      { verdict: 'CHANGES_REQUESTED', findings: ['fix it'], given: true },
    ],
    ['a verdict followed by words', block('VERDICT: APPROVED (with notes)', 'FINDINGS: none'), { verdict: 'APPROVED', findings: [], given: true }],
    ['no end marker: the block runs to the end', '---RALPH_REVIEW---\nVERDICT: APPROVED\nFINDINGS:\n', { verdict: 'APPROVED', findings: [], given: true }],
    [
      'the last block wins',
      `${block('VERDICT: APPROVED')}\nOn second thought:\n${block('VERDICT: CHANGES_REQUESTED', 'FINDINGS:', '- redo')}`,
      { verdict: 'CHANGES_REQUESTED', findings: ['redo'], given: true },
    ],
  ])('%s', (_name, reply, expected) => {
    expect(parseReviewReply(reply)).toEqual(expected);
  });

  it.each([
    ['no block at all', 'It all looks fine to me.', 'the reviewer gave no verdict'],
    ['an empty reply', '', 'the reviewer gave no verdict'],
    ['a block without VERDICT', block('FINDINGS:', '- x'), 'the reviewer gave no verdict (its block has no VERDICT line)'],
    ['a lowercase verdict word', block('VERDICT: approved'), 'the reviewer gave no verdict (VERDICT "approved" is neither APPROVED nor CHANGES_REQUESTED)'],
    ['a made-up verdict word', block('VERDICT: LGTM'), 'the reviewer gave no verdict (VERDICT "LGTM" is neither APPROVED nor CHANGES_REQUESTED)'],
    [
      'a verdict word run together',
      block('VERDICT: APPROVEDISH'),
      'the reviewer gave no verdict (VERDICT "APPROVEDISH" is neither APPROVED nor CHANGES_REQUESTED)',
    ],
  ])('%s counts as changes requested', (_name, reply, finding) => {
    expect(parseReviewReply(reply)).toEqual({ verdict: 'CHANGES_REQUESTED', findings: [finding], given: false });
  });

  it('changes requested without a finding still tells the worker something', () => {
    expect(parseReviewReply(block('VERDICT: CHANGES_REQUESTED', 'FINDINGS:')).findings).toEqual(['the reviewer requested changes but listed no finding']);
  });

  it('reads only the end of a huge reply: a block buried before the last 64 KiB is not a verdict', () => {
    const reply = `${block('VERDICT: APPROVED')}\n${'x'.repeat(REPLY_SCAN_CHARS)}`;
    expect(parseReviewReply(reply).given).toBe(false);
  });

  it('caps the number and length of findings and drops control characters', () => {
    const many = Array.from({ length: MAX_FINDINGS + 5 }, (_, i) => `- finding ${i}`);
    const parsed = parseReviewReply(
      block('VERDICT: CHANGES_REQUESTED', 'FINDINGS:', `- ${'y'.repeat(MAX_FINDING_CHARS + 50)}`, '- bell\u0007 and \u001b[31mred', ...many),
    );
    expect(parsed.findings).toHaveLength(MAX_FINDINGS + 1);
    expect(parsed.findings[0]).toBe(`${'y'.repeat(MAX_FINDING_CHARS)}…`);
    expect(parsed.findings[1]).toBe('bell and [31mred');
    expect(parsed.findings.at(-1)).toBe('(7 more findings left out)');
  });

  it('ignores lines that are not bullets, and anything before FINDINGS', () => {
    expect(parseReviewReply(block('- stray before', 'VERDICT: CHANGES_REQUESTED', 'FINDINGS:', 'prose line', '- real one')).findings).toEqual(['real one']);
  });
});
