import { describe, expect, it } from 'vitest';
import { countQuestions, findCompletionPhrase, findNoWorkPhrase, looksTestOnly, summarize } from '../../../src/core/text-heuristics.js';

describe('findCompletionPhrase: whole words only (U§15.5)', () => {
  it.each([
    ['All tasks complete.', 'all tasks complete'],
    ['ALL TASKS COMPLETE', 'all tasks complete'],
    ['Project complete!', 'project complete'],
    ['The PR is ready for review.', 'ready for review'],
    ['Done.', 'done'],
    ['I am done with the parser', 'done'],
    ['The migration is complete', 'complete'],
    ['Everything is finished now', 'finished'],
    ['All\ttasks\n complete', 'all tasks complete'],
  ])('%j → %j', (text, phrase) => {
    expect(findCompletionPhrase(text)).toBe(phrase);
  });

  it.each([
    'The implementation is incomplete.',
    'The old approach was abandoned.',
    'I completed the first task.',
    'It is completely broken.',
    'The change was undone.',
    'A well-done refactor',
    'a done-ness check',
    'Unfinished business remains',
    'This is a non-complete list',
    '',
  ])('%j is not a completion', (text) => {
    expect(findCompletionPhrase(text)).toBeUndefined();
  });

  it.each([
    'The work is not yet complete.',
    'It is not complete.',
    'This is not done.',
    'It is never finished.',
    'Almost done, two tasks left.',
    'Nearly complete.',
    "It isn't finished.",
    'The feature is not quite done',
    'Partially complete',
  ])('%j is negated and not a completion', (text) => {
    expect(findCompletionPhrase(text)).toBeUndefined();
  });

  // Negation read across the phrase's clause, not one word before it.
  it.each([
    'Remaining work to be done: the parser and the docs.',
    'Nothing is complete yet.',
    'None of the tasks are finished.',
    'The feature is far from done.',
    'I could not get the build done.',
    'Is the feature complete? No.',
    'Is it done?',
    'We are still not finished with the migration',
    "The tests don't pass, so nothing here is complete",
    'There is more work to be done',
    'The refactor is yet to be finished',
    'Neither the API nor the CLI is complete',
    'No part of the plan is finished',
    'Once the parser is done I will move on to the CLI',
    'If all tasks complete, the loop can stop',
    'The parser is complete? Not really.',
    'Done — not yet',
    'I have not quite got the feature complete',
    'The work remains far from finished',
    'Without the database layer nothing can be done',
    "I couldn't get everything done in this loop",
    'The task is complete not',
  ])('%j is negated across the clause', (text) => {
    expect(findCompletionPhrase(text)).toBeUndefined();
  });

  it.each([
    ['All tasks complete. No further changes needed.', 'all tasks complete'],
    ['The build failed earlier, but the feature is done.', 'done'],
    ['There were no problems and the feature is complete.', 'complete'],
    ['Fixed the bug in parse.ts; the task is finished.', 'finished'],
    ['Not a single test fails. The project is complete!', 'complete'],
    ['Updated v1.2 notes. Everything is done', 'done'],
    ['No errors remain; the work is complete.', 'complete'],
    ['Done: implemented divide() and its tests', 'done'],
    ['The migration is complete and nothing is left', 'complete'],
    ['Without further ado: all tasks complete', 'all tasks complete'],
  ])('%j is a completion (%j)', (text, phrase) => {
    expect(findCompletionPhrase(text)).toBe(phrase);
  });

  it('a negated mention does not hide a real one later on', () => {
    expect(findCompletionPhrase('Yesterday it was not done. Today: all tasks complete')).toBe('all tasks complete');
    expect(findCompletionPhrase('Not yet complete earlier; now the project is complete')).toBe('complete');
  });
});

describe('findNoWorkPhrase', () => {
  it.each([
    ['Nothing to do here.', 'nothing to do'],
    ['No changes were needed.', 'no changes'],
    ['The feature is already implemented.', 'already implemented'],
    ['Everything is up to date.', 'up to date'],
    ['Dependencies are UP TO DATE', 'up to date'],
  ])('%j → %j', (text, phrase) => {
    expect(findNoWorkPhrase(text)).toBe(phrase);
  });

  it.each(['I made no changesets', 'Updated the docs', 'There is nothing-to-do-list', 'We have up-to-date-ish docs', 'Lots of changes'])(
    '%j is not a no-work phrase',
    (text) => {
      expect(findNoWorkPhrase(text)).toBeUndefined();
    },
  );
});

describe('looksTestOnly (U§4.5 step 3)', () => {
  it.each([
    'Running tests...\nAll 42 passed.',
    'npm test\n> 12 passing',
    'pytest -v\n3 passed',
    'Ran jest on the suite',
    'bats tests/unit',
    'Ran vitest and cargo test',
    'go test ./...',
  ])('%j is test-only', (text) => {
    expect(looksTestOnly(text)).toBe(true);
  });

  it.each([
    'Implementing the parser\nnpm test passes',
    'Created src/app.ts and ran npm test',
    'Added a function and ran pytest',
    'Fixed the bug; jest is green',
    'Refactored the class\nRunning tests',
    'Wrote the docs',
    'No tests here',
    'The attestation combats the jester',
    '',
  ])('%j is not test-only', (text) => {
    expect(looksTestOnly(text)).toBe(false);
  });
});

describe('countQuestions (U§4.5 QUESTION_PATTERNS)', () => {
  it.each([
    ['Should I proceed with option A?', 1],
    ['SHOULD I refactor?', 1],
    ['Would you like me to continue?', 1],
    ['Do you want me to add tests?', 1],
    ['Which approach do you prefer?', 2],
    ['Which option is better?', 1],
    ['How should the API look?', 1],
    ['What should I name it?', 2],
    ['Shall I go on?', 1],
    ['Can you clarify the requirement?', 1],
    ['Could you confirm the port?', 1],
    ['What do you think?', 1],
    ['Please confirm before I delete.', 1],
    ['I need clarification on the schema.', 1],
    ['Awaiting your input.', 1],
    ['Waiting for your response before continuing.', 1],
    ['Tell me your preference.', 1],
    ['Should I do A?\nOr should I do B?', 2],
  ])('%j has %i question match(es)', (text, count) => {
    expect(countQuestions(text)).toBe(count);
  });

  it.each(['I should refactor this next.', 'I shall continue.', 'The function should return early.', 'Implemented the login flow.', ''])(
    '%j asks nothing',
    (text) => {
      expect(countQuestions(text)).toBe(0);
    },
  );

  it('skips fenced code blocks', () => {
    const text = ['Here is the code:', '```ts', '// should I cache this? would you?', 'const shouldI = true;', '```', 'Done.'].join('\n');
    expect(countQuestions(text)).toBe(0);
  });

  it('counts questions after a fenced block again', () => {
    const text = ['~~~', 'should I', '~~~', 'Should I merge it?'].join('\n');
    expect(countQuestions(text)).toBe(1);
  });
});

describe('summarize', () => {
  it.each([
    ['Looked around.\nSummary: wrote the parser.\nMore.', 'Summary: wrote the parser.'],
    ['Step one.\nI implemented the lexer.', 'I implemented the lexer.'],
    ['Task 3 completed successfully', 'Task 3 completed successfully'],
    ['\n\n  First real line  \nSecond', 'First real line'],
    ['```\ncode\n```\n---\nAfter the rule', 'code'],
    ['', ''],
  ])('%j → %j', (text, summary) => {
    expect(summarize(text)).toBe(summary);
  });

  it('cuts long lines at 200 characters', () => {
    const s = summarize(`Summary: ${'x'.repeat(500)}`);
    expect(s).toHaveLength(200);
    expect(s.endsWith('...')).toBe(true);
  });
});
