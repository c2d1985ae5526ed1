import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../../../../src/config/keys.js';
import { parseFixPlan } from '../../../../../src/core/fix-plan.js';
import { extractPrdTasks, MAX_PRD_TASKS, detectPriority, renderFixPlan } from '../../../../../src/features/project/enable/prd-tasks.js';

describe('extractPrdTasks', () => {
  it('converts numbered and bulleted items', () => {
    const doc = ['# App', '', 'Intro text.', '', '1. Create the login page', '2) Store sessions', '- Add logout', '* Show the profile', '+ Export data'].join(
      '\n',
    );
    expect(extractPrdTasks(doc).map((t) => t.text)).toEqual(['Create the login page', 'Store sessions', 'Add logout', 'Show the profile', 'Export data']);
  });

  it('uses only the checkboxes when the document has some, unchecked', () => {
    const doc = ['Background:', '- a bullet that is context', '- [x] Done already', '- [ ] Still open', '* [X] Upper case', '1. [ ] numbered box'].join('\n');
    expect(extractPrdTasks(doc).map((t) => t.text)).toEqual(['Done already', 'Still open', 'Upper case', 'numbered box']);
  });

  it('skips code blocks, HTML comments, tables and items without words', () => {
    const doc = ['```', '- not a task', '```', '<!--', '- hidden', '-->', '| - cell |', '- !!', '- real task', '~~~md', '1. also code', '~~~'].join('\n');
    expect(extractPrdTasks(doc).map((t) => t.text)).toEqual(['real task']);
  });

  it('assigns priority from the item, else the heading, else medium', () => {
    const doc = [
      '## Must have',
      '- Login',
      '- Optional: dark mode',
      '## Details',
      '- Plain task',
      '- [P0] Fix data loss',
      '- Urgent: security patch',
      '### Future work',
      '- Plugins',
      '## Low priority',
      '- Animations',
      '- Critical bug in low section',
    ].join('\n');
    expect(extractPrdTasks(doc).map((t) => [t.text, t.priority])).toEqual([
      ['Login', 'high'],
      ['Optional: dark mode', 'optional'],
      ['Plain task', 'medium'],
      ['[P0] Fix data loss', 'high'],
      ['Urgent: security patch', 'high'],
      ['Plugins', 'optional'],
      ['Animations', 'low'],
      ['Critical bug in low section', 'high'],
    ]);
  });

  it(`keeps at most ${MAX_PRD_TASKS} tasks, without duplicates, in document order`, () => {
    const doc = Array.from({ length: 40 }, (_, i) => `- Task ${i % 35}`).join('\n');
    const tasks = extractPrdTasks(doc);
    expect(tasks).toHaveLength(MAX_PRD_TASKS);
    expect(tasks[0]?.text).toBe('Task 0');
    expect(tasks[29]?.text).toBe('Task 29');
    expect(extractPrdTasks('- Same\n- same\n- SAME').map((t) => t.text)).toEqual(['Same']);
  });

  it('collapses whitespace, caps long items and reads CRLF', () => {
    const tasks = extractPrdTasks(`-   spaced    out  \r\n- ${'x'.repeat(300)}\r\n`);
    expect(tasks[0]?.text).toBe('spaced out');
    expect(tasks[1]?.text).toHaveLength(200);
  });

  it.each([
    ['critical path', 'high'],
    ['P0', 'high'],
    ['nice to have', 'optional'],
    ['future ideas', 'optional'],
    ['low priority', 'low'],
    ['incriticality', undefined],
    ['top0', undefined],
  ])('detectPriority(%j) = %j', (text, priority) => {
    expect(detectPriority(text)).toBe(priority);
  });
});

describe('renderFixPlan', () => {
  const optional = CONFIG_KEYS.optionalSections.default;

  it('puts tasks in their sections, unchecked, with optional ones non-blocking', () => {
    const text = renderFixPlan(
      [
        { text: 'A', priority: 'high' },
        { text: 'B', priority: 'medium' },
        { text: 'C', priority: 'low' },
        { text: 'D', priority: 'optional' },
      ],
      'prd.md',
    );
    const plan = parseFixPlan(text, optional);
    expect(plan.tasks.map((t) => [t.text, t.section, t.checked, t.optional])).toEqual([
      ['A', 'High Priority', false, false],
      ['B', 'Medium Priority', false, false],
      ['C', 'Low Priority', false, false],
      ['D', 'Optional', false, true],
      ['Ralph enabled for this project', 'Completed', true, false],
    ]);
    expect(plan.blockingUnchecked).toBe(3);
    expect(text).toContain('prd.md');
    expect(text).not.toMatch(/\n\n\n/);
  });

  it('adds a blocking task when every imported task is optional, so the plan is not complete at once', () => {
    const plan = parseFixPlan(renderFixPlan([{ text: 'Someday', priority: 'optional' }], 'spec.md'), optional);
    expect(plan.complete).toBe(false);
    expect(plan.tasks[0]?.text).toBe('Implement the requirements described in spec.md');
  });
});
