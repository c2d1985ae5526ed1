/**
 * The reviewer's verdict, read from the block it ends its reply with:
 *
 *   ---RALPH_REVIEW---
 *   VERDICT: APPROVED | CHANGES_REQUESTED
 *   FINDINGS:
 *   - <one finding per line>
 *   ---END_RALPH_REVIEW---
 *
 * The reply is untrusted text: only its last REPLY_SCAN_CHARS are read, findings are capped in
 * number and length, and control characters are dropped. Markdown around the block (a code
 * fence, bold markers, a quote) is tolerated; the verdict word is not guessed: anything but
 * APPROVED or CHANGES_REQUESTED is no verdict, and no verdict counts as changes requested.
 */
export type ReviewVerdictWord = 'APPROVED' | 'CHANGES_REQUESTED';

export interface ReviewVerdict {
  verdict: ReviewVerdictWord;
  findings: string[];
  /** The reply carried a block with a valid verdict. */
  given: boolean;
}

/** The block sits at the end of the reply: what comes before this many characters is never read. */
export const REPLY_SCAN_CHARS = 64 * 1024;
export const MAX_FINDINGS = 30;
export const MAX_FINDING_CHARS = 400;

export const NO_VERDICT_FINDING = 'the reviewer gave no verdict';
export const NO_FINDINGS_FINDING = 'the reviewer requested changes but listed no finding';

const START = '---RALPH_REVIEW---';
const END = '---END_RALPH_REVIEW---';

/** A line without the markdown that may wrap it: quote marks, bold/italic/code markers. */
function bareLine(line: string): string {
  return line
    .trim()
    .replace(/^(?:>\s*)+/, '')
    .replace(/^[*_`]+|[*_`]+$/g, '')
    .trim();
}

/** Control characters (terminal escapes among them) never reach a prompt or a screen. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

function noVerdict(detail?: string): ReviewVerdict {
  return { verdict: 'CHANGES_REQUESTED', findings: [detail ? `${NO_VERDICT_FINDING} (${detail})` : NO_VERDICT_FINDING], given: false };
}

/** The lines of the last review block of `reply`, or undefined when it has none. */
function lastBlock(reply: string): string[] | undefined {
  const lines = reply.slice(-REPLY_SCAN_CHARS).split(/\r?\n/);
  let start = -1;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    if (bareLine(lines[i] as string) === START) {
      start = i;
      break;
    }
  }
  if (start < 0) return undefined;
  const block: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (bareLine(line) === END) break;
    block.push(line);
  }
  return block;
}

/** Reads the verdict and findings of a reviewer's reply (the reviewer call's reply only, never the worker's). */
export function parseReviewReply(reply: string): ReviewVerdict {
  const block = lastBlock(reply);
  if (!block) return noVerdict();
  let verdict: ReviewVerdictWord | undefined;
  let seenVerdict: string | undefined;
  let inFindings = false;
  const findings: string[] = [];
  let dropped = 0;
  for (const raw of block) {
    const line = bareLine(raw);
    const key = /^([A-Za-z]+)\s*[:：]\s*(.*)$/.exec(line);
    if (key && key[1]?.toUpperCase() === 'VERDICT') {
      seenVerdict = bareLine(key[2] ?? '');
      const word = seenVerdict.split(/\s/)[0] ?? '';
      if (verdict === undefined && (word === 'APPROVED' || word === 'CHANGES_REQUESTED')) verdict = word;
      inFindings = false;
      continue;
    }
    if (key && key[1]?.toUpperCase() === 'FINDINGS') {
      inFindings = true;
      const rest = bareLine(key[2] ?? '');
      if (rest !== '' && !/^(none|-)$/i.test(rest)) findings.push(rest);
      continue;
    }
    if (!inFindings) continue;
    const item = /^\s*(?:>\s*)*[-*•]\s+(.*)$/.exec(raw);
    if (!item) continue;
    const text = printable(item[1] ?? '').trim();
    if (text === '' || /^none\.?$/i.test(text)) continue;
    if (findings.length >= MAX_FINDINGS) {
      dropped += 1;
      continue;
    }
    findings.push(text.length > MAX_FINDING_CHARS ? `${text.slice(0, MAX_FINDING_CHARS)}…` : text);
  }
  if (verdict === undefined) {
    return noVerdict(
      seenVerdict === undefined
        ? 'its block has no VERDICT line'
        : `VERDICT "${printable(seenVerdict).slice(0, 40)}" is neither APPROVED nor CHANGES_REQUESTED`,
    );
  }
  if (dropped > 0) findings.push(`(${dropped} more findings left out)`);
  if (verdict === 'CHANGES_REQUESTED' && findings.length === 0) findings.push(NO_FINDINGS_FINDING);
  return { verdict, findings, given: true };
}
