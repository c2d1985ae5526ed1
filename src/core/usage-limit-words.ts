/**
 * How an agent says in words that its plan's usage limit is reached ("You've hit your 5-hour
 * limit", "usage limit reached", "weekly limit"): Claude Code's messages, and the words a mock
 * script plays a usage limit in. A text reader's clue only; a CLI's own structured limit comes first.
 */
export const USAGE_LIMIT_WORDS: readonly RegExp[] = [
  /5.*hour.*limit/i,
  /limit.*reached.*try.*back/i,
  /usage.*limit.*reached/i,
  /out of extra usage/i,
  /hit your\b.*\blimit/i,
  /\b(weekly|session|opus) limit\b/i,
];
