import { describe, expect, it } from 'vitest';
import { BASE_CONTEXT_LIMIT, buildLoopContext } from '../../../src/core/loop-context.js';

const QUESTIONS_NOTE_START = 'IMPORTANT: You asked questions in the previous loop.';

describe('buildLoopContext (U§3.4 step 4)', () => {
  it('says the loop number', () => {
    expect(buildLoopContext({ loop: 3 })).toBe('Loop #3.');
  });

  it('builds the parts in the original order', () => {
    const text = buildLoopContext({ loop: 4, remainingTasks: 7, circuitState: 'HALF_OPEN', previousSummary: 'Wrote the parser', askedQuestions: true });
    expect(text.startsWith('Loop #4. Remaining tasks: 7. Circuit breaker: HALF_OPEN. Previous: Wrote the parser IMPORTANT: You asked questions')).toBe(true);
    expect(text).toContain('Do NOT ask questions.');
    expect(text).toContain('proceed autonomously.');
  });

  it('reports zero remaining tasks', () => {
    expect(buildLoopContext({ loop: 1, remainingTasks: 0 })).toBe('Loop #1. Remaining tasks: 0.');
  });

  it.each([
    ['CLOSED', false],
    ['', false],
    ['HALF_OPEN', true],
    ['OPEN', true],
  ])('circuit state %j is mentioned: %s', (state, mentioned) => {
    expect(buildLoopContext({ loop: 1, circuitState: state }).includes('Circuit breaker')).toBe(mentioned);
  });

  it('keeps only the first 200 characters of the previous summary', () => {
    const text = buildLoopContext({ loop: 2, previousSummary: 'a'.repeat(300) });
    expect(text).toBe(`Loop #2. Previous: ${'a'.repeat(200)}`);
  });

  it('adds the questions note only when questions were asked', () => {
    expect(buildLoopContext({ loop: 2, askedQuestions: false })).not.toContain(QUESTIONS_NOTE_START);
    expect(buildLoopContext({ loop: 2, askedQuestions: true })).toContain(QUESTIONS_NOTE_START);
  });

  it('warns about recurring errors, naming at most two', () => {
    const text = buildLoopContext({ loop: 5, repeatedErrors: ['Error: one', 'Error: two', 'Error: three'] });
    expect(text).toContain('WARNING: the same error keeps recurring: Error: one | Error: two. Try a different approach.');
    expect(text).not.toContain('three');
    expect(buildLoopContext({ loop: 5, repeatedErrors: [] })).toBe('Loop #5.');
  });

  it(`cuts the base context at ${BASE_CONTEXT_LIMIT} characters`, () => {
    const text = buildLoopContext({
      loop: 9,
      remainingTasks: 3,
      circuitState: 'HALF_OPEN',
      previousSummary: 'x'.repeat(200),
      askedQuestions: true,
      repeatedErrors: ['Error: '.padEnd(150, 'e')],
    });
    expect(BASE_CONTEXT_LIMIT).toBe(500);
    expect(text.length).toBeLessThanOrEqual(500);
    expect(text.startsWith('Loop #9. Remaining tasks: 3.')).toBe(true);
  });

  it('appends the task and the verify feedback after the base, never cut', () => {
    const feedback = `## Shell Verification FAILED (Attempt 2/5)\nCommand: npm test\nExit code: 1\n${'output line\n'.repeat(100)}`;
    const text = buildLoopContext({
      loop: 2,
      previousSummary: 'p'.repeat(200),
      askedQuestions: true,
      task: '  fix-auth: make login work  ',
      verifyFeedback: feedback,
    });
    const parts = text.split('\n\n');
    expect(parts[0]?.startsWith('Loop #2.')).toBe(true);
    expect(parts[1]).toBe('fix-auth: make login work');
    expect(text.endsWith(feedback.trim())).toBe(true);
    expect(text.length).toBeGreaterThan(BASE_CONTEXT_LIMIT);
  });

  it('has no trailing space', () => {
    expect(buildLoopContext({ loop: 1, remainingTasks: 2, askedQuestions: true }).endsWith(' ')).toBe(false);
  });
});
