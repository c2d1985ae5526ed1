import { describe, expect, it } from 'vitest';
import { checkFirstTasks, parseFixPlan } from '../../../src/core/fix-plan.js';

const DEFAULT_OPTIONAL = ['Optional', 'Future', 'Future Enhancements', 'Nice to Have'];
const plan = (...lines: string[]): string => lines.join('\n');
const summary = (text: string, optional: readonly string[] = DEFAULT_OPTIONAL) => parseFixPlan(text, optional);

describe('parseFixPlan: completion (U§13.6)', () => {
  it.each([
    ['all [x]', plan('# Plan', '- [x] one', '- [x] two'), true],
    ['all [X]', plan('- [X] one', '- [X] two'), true],
    ['mixed x and X', plan('- [x] one', '- [X] two'), true],
    ['partial', plan('- [x] one', '- [ ] two'), false],
    ['nothing checked', plan('- [ ] one', '- [ ] two'), false],
    ['no checkboxes', plan('# Plan', 'Just notes.', '- a bullet'), false],
    ['empty file', '', false],
  ])('%s → complete=%s', (_name, text, complete) => {
    expect(summary(text).complete).toBe(complete);
  });

  it('counts checked, blocking and optional tasks', () => {
    const s = summary(plan('## High', '- [x] a', '- [ ] b', '- [ ] c', '## Optional', '- [ ] d'));
    expect(s).toMatchObject({ checked: 1, blockingUnchecked: 2, optionalUnchecked: 1, complete: false });
    expect(s.tasks.map((t) => [t.line, t.text, t.checked, t.optional, t.section])).toEqual([
      [2, 'a', true, false, 'High'],
      [3, 'b', false, false, 'High'],
      [4, 'c', false, false, 'High'],
      [6, 'd', false, true, 'Optional'],
    ]);
  });
});

describe('parseFixPlan: checkbox grammar', () => {
  it.each([
    ['- [ ] task', true],
    ['- [x] task', true],
    ['- [X] task', true],
    ['-   [ ] extra spaces after the hyphen', true],
    ['  - [ ] indented', true],
    ['\t- [ ] tab indented', true],
    ['- [ ]', true],
    ['- [ ]   extra spaces after the box', true],
    ['- [] no space inside', false],
    ['* [ ] star bullet', false],
    ['+ [ ] plus bullet', false],
    ['1. [ ] numbered', false],
    ['- [2026-01-29] dated note', false],
    ['  - [2026-01-29] indented date', false],
    ['- [NOTE] remember this', false],
    ['- [v1.0] release', false],
    ['- [#123] issue', false],
    ['- [xx] two letters', false],
    ['- [ x] spaced x', false],
    ['- [x]no space after', false],
    ['[ ] no hyphen', false],
    ['text - [ ] mid-line', false],
  ])('%j counts as a task: %s', (line, counted) => {
    expect(summary(line).tasks).toHaveLength(counted ? 1 : 0);
  });

  it('dates and notes beside real tasks change nothing', () => {
    const s = summary(plan('- [x] done', '- [2026-01-29] log entry', '- [NOTE] keep in mind', '  - [2025-12-01] nested date'));
    expect(s.tasks).toHaveLength(1);
    expect(s.complete).toBe(true);
  });

  it('reads CRLF files like LF files', () => {
    const lf = plan('# Plan', '## High', '- [x] a', '- [ ] b', '## Optional', '- [ ] c');
    const crlf = summary(lf.replace(/\n/g, '\r\n'));
    expect(crlf).toEqual(summary(lf));
    expect(crlf.tasks[1]?.text).toBe('b');
  });

  it('a CRLF file with every task checked is complete', () => {
    expect(summary('- [x] a\r\n- [X] b\r\n').complete).toBe(true);
  });

  it('ignores checkboxes inside code fences', () => {
    const s = summary(plan('- [x] real', '```markdown', '- [ ] example in a fence', '```', '~~~', '- [ ] another example', '~~~'));
    expect(s.tasks).toHaveLength(1);
    expect(s.complete).toBe(true);
  });

  it('a different fence marker does not close a fence', () => {
    const s = summary(plan('```', '~~~', '- [ ] still inside', '```', '- [ ] outside'));
    expect(s.tasks.map((t) => t.text)).toEqual(['outside']);
  });

  it('ignores checkboxes inside HTML comments, single- and multi-line', () => {
    const s = summary(plan('- [x] real', '<!-- - [ ] commented out -->', '<!--', '- [ ] also commented', '-->', '- [x] after'));
    expect(s.tasks.map((t) => t.text)).toEqual(['real', 'after']);
    expect(s.complete).toBe(true);
  });
});

describe('parseFixPlan: optional sections (#239)', () => {
  it('only optional items unchecked → complete', () => {
    const text = plan(
      '## High Priority',
      '- [x] core',
      '## Optional',
      '- [ ] nice',
      '## Future',
      '- [ ] later',
      '## Future Enhancements',
      '- [ ] x',
      '## Nice to Have',
      '- [ ] y',
    );
    const s = summary(text);
    expect(s.blockingUnchecked).toBe(0);
    expect(s.optionalUnchecked).toBe(4);
    expect(s.complete).toBe(true);
  });

  it('an unchecked item in a required section blocks', () => {
    expect(summary(plan('## High', '- [ ] needed', '## Optional', '- [x] done')).complete).toBe(false);
  });

  it.each(['## optional', '## OPTIONAL', '##   Optional  ', '## Nice To Have', '## Optional ##'])('headings match case-insensitively: %j', (heading) => {
    expect(summary(plan('- [x] done', heading, '- [ ] skipped')).complete).toBe(true);
  });

  it('the title must match exactly, not contain the word', () => {
    expect(summary(plan('- [x] done', '## Optional extras', '- [ ] blocking')).complete).toBe(false);
    expect(summary(plan('- [x] done', '## Not Optional', '- [ ] blocking')).complete).toBe(false);
  });

  it('a heading needs whitespace after the hashes', () => {
    expect(summary(plan('- [x] done', '##Optional', '- [ ] blocking')).complete).toBe(false);
  });

  it('deeper sub-headings stay optional', () => {
    const s = summary(plan('## Optional', '### Nice extras', '- [ ] a', '#### Deeper', '- [ ] b', '## Done', '- [x] c'));
    expect(s.tasks.map((t) => t.optional)).toEqual([true, true, false]);
    expect(s.complete).toBe(true);
  });

  it('a later heading of the same level re-blocks', () => {
    const s = summary(plan('## Optional', '- [ ] a', '## Cleanup', '- [ ] b'));
    expect(s.tasks.map((t) => t.optional)).toEqual([true, false]);
    expect(s.complete).toBe(false);
  });

  it('a later heading of a higher level re-blocks', () => {
    const s = summary(plan('# Plan', '### Optional', '- [ ] a', '## Phase 2', '- [ ] b'));
    expect(s.tasks.map((t) => t.optional)).toEqual([true, false]);
  });

  it('an optional sub-section under a required section is optional only itself', () => {
    const s = summary(plan('## Phase 1', '- [x] a', '### Optional', '- [ ] b', '### Tests', '- [ ] c'));
    expect(s.tasks.map((t) => t.optional)).toEqual([false, true, false]);
  });

  it('custom OPTIONAL_SECTIONS replaces the defaults', () => {
    const text = plan('- [x] done', '## Backlog', '- [ ] a', '## Optional', '- [ ] b');
    const s = summary(text, ['Backlog']);
    expect(s.tasks.map((t) => t.optional)).toEqual([false, true, false]);
    expect(s.complete).toBe(false);
  });

  it('no optional sections configured means every task blocks', () => {
    expect(summary(plan('- [x] a', '## Optional', '- [ ] b'), []).complete).toBe(false);
  });

  it('only optional tasks and none checked is not complete', () => {
    expect(summary(plan('## Optional', '- [ ] a')).complete).toBe(false);
  });

  it('the template fix_plan.md (U§12) is incomplete until every priority item is checked', () => {
    const template = plan(
      '# Ralph Fix Plan',
      '',
      '## High Priority',
      '- [ ] Set up basic project structure and build system',
      '',
      '## Medium Priority',
      '- [ ] Add error handling',
      '',
      '## Low Priority',
      '- [ ] Performance optimization',
      '',
      '## Optional',
      '<!-- Items here do not block completion (#239) -->',
      '- [ ] Nice-to-have enhancements (non-blocking)',
      '',
      '## Completed',
      '- [x] Project initialization',
      '',
      '## Notes',
      '- Focus on MVP functionality first',
    );
    const s = summary(template);
    expect(s).toMatchObject({ checked: 1, blockingUnchecked: 3, optionalUnchecked: 1, complete: false });
    const done = template.replace(/- \[ \] (Set up|Add error|Performance)/g, '- [x] $1');
    expect(summary(done).complete).toBe(true);
  });
});

describe('checkFirstTasks', () => {
  it('checks the first N unchecked blocking tasks and nothing else', () => {
    const text = plan('- [x] a', '- [ ] b', '## Optional', '- [ ] c', '## Later', '- [ ] d', '- [ ] e');
    expect(checkFirstTasks(text, DEFAULT_OPTIONAL, 2)).toBe(plan('- [x] a', '- [x] b', '## Optional', '- [ ] c', '## Later', '- [x] d', '- [ ] e'));
  });

  it('keeps CRLF line endings', () => {
    expect(checkFirstTasks('- [ ] a\r\n- [ ] b\r\n', DEFAULT_OPTIONAL, 1)).toBe('- [x] a\r\n- [ ] b\r\n');
  });

  it.each([0, -1])('count %i changes nothing', (count) => {
    expect(checkFirstTasks('- [ ] a', DEFAULT_OPTIONAL, count)).toBe('- [ ] a');
  });

  it('more than the open tasks checks them all', () => {
    const done = checkFirstTasks(plan('- [ ] a', '- [ ] b'), DEFAULT_OPTIONAL, 10);
    expect(parseFixPlan(done, DEFAULT_OPTIONAL).complete).toBe(true);
  });

  it('leaves boxes in code fences alone', () => {
    expect(checkFirstTasks(plan('```', '- [ ] sample', '```', '- [ ] real'), DEFAULT_OPTIONAL, 1)).toBe(plan('```', '- [ ] sample', '```', '- [x] real'));
  });
});
