/**
 * Word heuristics over the agent's prose (U§4.5), matched as whole words so
 * "incomplete" is not "complete" and "abandoned" is not "done" (U§15.5).
 */

const NEGATION_BEFORE = /\b(not|never|isn't|isnt|aren't|wasn't|won't|no|yet|almost|nearly|partially|partly)\W+(\w+\W+)?$/i;

/** Phrases that, in text mode, suggest the work is finished. */
const COMPLETION_PHRASES = ['all tasks complete', 'project complete', 'ready for review', 'done', 'complete', 'finished'];
/** Phrases meaning there is nothing left to do. */
const NO_WORK_PHRASES = ['nothing to do', 'no changes', 'already implemented', 'up to date'];

function phraseRegex(phrase: string): RegExp {
  const body = phrase
    .split(' ')
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\s+');
  return new RegExp(`(?<![\\w-])${body}(?![\\w-])`, 'gi');
}

const COMPLETION_REGEXES = COMPLETION_PHRASES.map((p) => [p, phraseRegex(p)] as const);
const NO_WORK_REGEXES = NO_WORK_PHRASES.map((p) => [p, phraseRegex(p)] as const);

/** First phrase found as whole words and not negated just before ("not yet complete"). */
function findPhrase(text: string, regexes: ReadonlyArray<readonly [string, RegExp]>): string | undefined {
  for (const [phrase, regex] of regexes) {
    regex.lastIndex = 0;
    for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
      const before = text.slice(Math.max(0, m.index - 40), m.index);
      if (!NEGATION_BEFORE.test(before)) return phrase;
    }
  }
  return undefined;
}

export function findCompletionPhrase(text: string): string | undefined {
  return findPhrase(text, COMPLETION_REGEXES);
}

export function findNoWorkPhrase(text: string): string | undefined {
  return findPhrase(text, NO_WORK_REGEXES);
}

const TEST_LINE = /(?<![\w-])(running tests|npm test|bats|pytest|jest|vitest|cargo test|go test)(?![\w-])/i;
const IMPLEMENTATION_LINE = /(?<![\w-])(implementing|implemented|creating|created|writing|wrote|adding|added|function|class|refactor(ed|ing)?|fix(ed|ing)?)(?![\w-])/i;

/** Lines about running tests and none about writing code (U§4.5 step 3). */
export function looksTestOnly(text: string): boolean {
  let tests = 0;
  for (const line of text.split('\n')) {
    if (IMPLEMENTATION_LINE.test(line)) return false;
    if (TEST_LINE.test(line)) tests += 1;
  }
  return tests > 0;
}

/** The original's QUESTION_PATTERNS (U§4.5), each matched case-insensitively as whole words. */
const QUESTION_PATTERNS = [
  'should I',
  'would you',
  'do you want',
  'which approach',
  'which option',
  'how should',
  'what should',
  'shall I',
  'do you prefer',
  'can you clarify',
  'could you',
  'what do you think',
  'please confirm',
  'need clarification',
  'awaiting.*input',
  'waiting.*response',
  'your preference',
].map((p) => new RegExp(`\\b${p.replace(/ /g, '\\s+')}\\b`, 'i'));

/** Number of (line, pattern) matches of question phrases; code fences are skipped. */
export function countQuestions(text: string): number {
  let count = 0;
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    for (const pattern of QUESTION_PATTERNS) if (pattern.test(line)) count += 1;
  }
  return count;
}

/** First line that reads like a summary, else the first non-empty line (≤ 200 chars). */
export function summarize(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !/^(```|~~~|---)/.test(l));
  const pick = lines.find((l) => /\b(summary|completed|implemented)\b/i.test(l)) ?? lines[0] ?? '';
  return pick.length > 200 ? `${pick.slice(0, 197)}...` : pick;
}
