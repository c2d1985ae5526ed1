/**
 * Word heuristics over the agent's prose, matched as whole words so
 * "incomplete" is not "complete" and "abandoned" is not "done".
 */

/**
 * Negation is read across the clause a phrase stands in, not one word before
 * it: "None of the tasks are finished", "I could not get the build done",
 * "Remaining work to be done" and "far from done" are no completion, while
 * "the build failed earlier, but the feature is done" is one. A question
 * ("Is the feature complete? No") claims nothing either way.
 */
const CLAUSE_BOUNDARY = /[.!?;:\n,()]|\b(?:and|but|so|then|because|although|though|whereas|however)\b/gi;
const NEGATING_WORDS =
  /\b(?:not|never|no|nothing|none|neither|nor|nobody|cannot|can't|cant|isn't|isnt|aren't|arent|wasn't|wasnt|weren't|werent|don't|dont|doesn't|doesnt|didn't|didnt|won't|wont|wouldn't|couldn't|couldnt|shouldn't|hasn't|hasnt|haven't|havent|without|hardly|barely|almost|nearly|partially|partly|remaining|remains|remain|yet|far\s+from|to\s+be|if|once|unless|until|whether|when)\b/i;
const NEGATING_AFTER = /^\W*(?:\w+\W+){0,3}?(?:yet|not)\b/i;

interface Clause {
  before: string;
  after: string;
  question: boolean;
}

/** The part of the match's clause before and after it, and whether the clause asks. */
function clauseAround(text: string, start: number, end: number): Clause {
  let clauseStart = 0;
  CLAUSE_BOUNDARY.lastIndex = 0;
  for (let b = CLAUSE_BOUNDARY.exec(text); b !== null && b.index < start; b = CLAUSE_BOUNDARY.exec(text)) {
    // "a.ts" or "v1.2" are not sentence ends.
    if (b[0] === '.' && /\w/.test(text[b.index + 1] ?? '')) continue;
    clauseStart = b.index + b[0].length;
  }
  CLAUSE_BOUNDARY.lastIndex = end;
  let clauseEnd = text.length;
  let boundary = '';
  for (let b = CLAUSE_BOUNDARY.exec(text); b !== null; b = CLAUSE_BOUNDARY.exec(text)) {
    if (b[0] === '.' && /\w/.test(text[b.index + 1] ?? '')) continue;
    clauseEnd = b.index;
    boundary = b[0];
    break;
  }
  return { before: text.slice(clauseStart, start), after: text.slice(end, clauseEnd), question: boundary === '?' };
}

function isNegated(text: string, start: number, end: number): boolean {
  const clause = clauseAround(text, start, end);
  return clause.question || NEGATING_WORDS.test(clause.before) || NEGATING_AFTER.test(clause.after);
}

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

/** First phrase found as whole words and not negated in its clause. */
function findPhrase(text: string, regexes: ReadonlyArray<readonly [string, RegExp]>): string | undefined {
  for (const [phrase, regex] of regexes) {
    regex.lastIndex = 0;
    for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
      if (!isNegated(text, m.index, m.index + m[0].length)) return phrase;
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
const IMPLEMENTATION_LINE =
  /(?<![\w-])(implementing|implemented|creating|created|writing|wrote|adding|added|function|class|refactor(ed|ing)?|fix(ed|ing)?)(?![\w-])/i;

/** Lines about running tests and none about writing code. */
export function looksTestOnly(text: string): boolean {
  let tests = 0;
  for (const line of text.split('\n')) {
    if (IMPLEMENTATION_LINE.test(line)) return false;
    if (TEST_LINE.test(line)) tests += 1;
  }
  return tests > 0;
}

/** The original's QUESTION_PATTERNS, each matched case-insensitively as whole words. */
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
