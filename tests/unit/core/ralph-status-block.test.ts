import { describe, expect, it } from 'vitest';
import { parseStatusBlock, withoutStatusBlock } from '../../../src/core/ralph-status-block.js';

const lines = (...l: string[]): string => l.join('\n');

const TEMPLATE_BLOCK = lines(
  '---RALPH_STATUS---',
  'STATUS: IN_PROGRESS',
  'TASKS_COMPLETED_THIS_LOOP: 1',
  'FILES_MODIFIED: 2',
  'TESTS_STATUS: PASSING',
  'WORK_TYPE: IMPLEMENTATION',
  'EXIT_SIGNAL: false',
  'RECOMMENDATION: Continue with the parser',
  '---END_RALPH_STATUS---',
);

describe('parseStatusBlock: the template block (U§12)', () => {
  it('reads every field', () => {
    expect(parseStatusBlock(`Did some work.\n\n${TEMPLATE_BLOCK}\n`)).toEqual({
      status: 'IN_PROGRESS',
      exitSignal: false,
      tasksCompleted: 1,
      filesModified: 2,
      testsStatus: 'PASSING',
      workType: 'IMPLEMENTATION',
      recommendation: 'Continue with the parser',
      fields: {
        STATUS: 'IN_PROGRESS',
        TASKS_COMPLETED_THIS_LOOP: '1',
        FILES_MODIFIED: '2',
        TESTS_STATUS: 'PASSING',
        WORK_TYPE: 'IMPLEMENTATION',
        EXIT_SIGNAL: 'false',
        RECOMMENDATION: 'Continue with the parser',
      },
      warnings: [],
    });
  });

  it('returns undefined when there is no block', () => {
    expect(parseStatusBlock('Just prose. STATUS: COMPLETE\nEXIT_SIGNAL: true')).toBeUndefined();
    expect(parseStatusBlock('')).toBeUndefined();
  });
});

describe('parseStatusBlock: quirks of the original that are fixed (U§4.2, U§15.3)', () => {
  it('TESTS_STATUS: PASSING beside STATUS: COMPLETE does not pollute STATUS', () => {
    for (const order of [
      ['STATUS: COMPLETE', 'TESTS_STATUS: PASSING'],
      ['TESTS_STATUS: PASSING', 'STATUS: COMPLETE'],
    ]) {
      const block = parseStatusBlock(lines('---RALPH_STATUS---', ...order, '---END_RALPH_STATUS---'));
      expect(block?.status).toBe('COMPLETE');
      expect(block?.testsStatus).toBe('PASSING');
      expect(block?.exitSignal).toBeUndefined();
    }
  });

  it('the last block wins', () => {
    const text = lines(
      '---RALPH_STATUS---',
      'STATUS: COMPLETE',
      'EXIT_SIGNAL: true',
      '---END_RALPH_STATUS---',
      '',
      'Wait, more to do.',
      '',
      '---RALPH_STATUS---',
      'STATUS: IN_PROGRESS',
      'EXIT_SIGNAL: false',
      '---END_RALPH_STATUS---',
    );
    const block = parseStatusBlock(text);
    expect(block?.status).toBe('IN_PROGRESS');
    expect(block?.exitSignal).toBe(false);
  });

  it('only the last block is read: fields of an earlier block do not leak', () => {
    const text = lines(
      '---RALPH_STATUS---',
      'FILES_MODIFIED: 9',
      'EXIT_SIGNAL: true',
      '---END_RALPH_STATUS---',
      '---RALPH_STATUS---',
      'STATUS: BLOCKED',
      '---END_RALPH_STATUS---',
    );
    const block = parseStatusBlock(text);
    expect(block?.filesModified).toBeUndefined();
    expect(block?.exitSignal).toBeUndefined();
    expect(block?.status).toBe('BLOCKED');
  });

  it('a quoted template earlier in the answer does not matter', () => {
    const text = lines(
      'The template says:',
      '```',
      '---RALPH_STATUS---',
      'EXIT_SIGNAL: false | true',
      '---END_RALPH_STATUS---',
      '```',
      '',
      '---RALPH_STATUS---',
      'STATUS: COMPLETE',
      'EXIT_SIGNAL: true',
      '---END_RALPH_STATUS---',
    );
    expect(parseStatusBlock(text)?.exitSignal).toBe(true);
  });

  it('duplicate EXIT_SIGNAL: true lines read as true (the original read "true true" as false)', () => {
    const block = parseStatusBlock(lines('---RALPH_STATUS---', 'EXIT_SIGNAL: true', 'EXIT_SIGNAL: true', '---END_RALPH_STATUS---'));
    expect(block?.exitSignal).toBe(true);
    expect(block?.warnings).toEqual([]);
  });

  it.each(['true', 'True', 'TRUE', ' true ', 'yes', '**true**', '`true`', '"true"'])('EXIT_SIGNAL: %s is true', (value) => {
    expect(parseStatusBlock(lines('---RALPH_STATUS---', `EXIT_SIGNAL: ${value}`, '---END_RALPH_STATUS---'))?.exitSignal).toBe(true);
  });

  it.each(['false', 'False', 'FALSE', 'no', '*false*'])('EXIT_SIGNAL: %s is false', (value) => {
    expect(parseStatusBlock(lines('---RALPH_STATUS---', `EXIT_SIGNAL: ${value}`, '---END_RALPH_STATUS---'))?.exitSignal).toBe(false);
  });

  it.each(['exit_signal: true', 'Exit_Signal: true', 'EXIT_SIGNAL:true', 'EXIT_SIGNAL :  true'])(
    'keys are case-insensitive and spacing is free: %s',
    (line) => {
      expect(parseStatusBlock(lines('---RALPH_STATUS---', line, '---END_RALPH_STATUS---'))?.exitSignal).toBe(true);
    },
  );

  it.each([
    ['**EXIT_SIGNAL:** **true**'],
    ['**EXIT_SIGNAL**: true'],
    ['__EXIT_SIGNAL__: true'],
    ['- EXIT_SIGNAL: true'],
    ['* **EXIT_SIGNAL:** true'],
    ['`EXIT_SIGNAL:` true'],
    ['> EXIT_SIGNAL: true'],
  ])('markdown emphasis around keys and values is tolerated: %s', (line) => {
    expect(parseStatusBlock(lines('---RALPH_STATUS---', '**STATUS:** COMPLETE', line, '---END_RALPH_STATUS---'))).toMatchObject({
      status: 'COMPLETE',
      exitSignal: true,
    });
  });

  it('a bold opening marker is recognised', () => {
    expect(parseStatusBlock(lines('**---RALPH_STATUS---**', 'EXIT_SIGNAL: true', '**---END_RALPH_STATUS---**'))?.exitSignal).toBe(true);
  });

  it('a code fence around the block is tolerated', () => {
    const text = lines('Work done.', '', '```', '---RALPH_STATUS---', 'STATUS: COMPLETE', 'EXIT_SIGNAL: true', '---END_RALPH_STATUS---', '```');
    expect(parseStatusBlock(text)).toMatchObject({ status: 'COMPLETE', exitSignal: true });
  });

  it('a code fence inside the block is tolerated', () => {
    const text = lines('---RALPH_STATUS---', '```yaml', 'STATUS: COMPLETE', 'EXIT_SIGNAL: true', '```', '---END_RALPH_STATUS---');
    expect(parseStatusBlock(text)).toMatchObject({ status: 'COMPLETE', exitSignal: true });
  });

  it('CRLF line endings are tolerated', () => {
    const block = parseStatusBlock(TEMPLATE_BLOCK.replace(/\n/g, '\r\n'));
    expect(block?.status).toBe('IN_PROGRESS');
    expect(block?.exitSignal).toBe(false);
    expect(block?.recommendation).toBe('Continue with the parser');
  });

  it('the YAML style header with indented keys is read', () => {
    const text = lines('Finished.', '', 'RALPH_STATUS:', '  STATUS: COMPLETE', '  TESTS_STATUS: PASSING', '  EXIT_SIGNAL: true', '  FILES_MODIFIED: 4');
    expect(parseStatusBlock(text)).toMatchObject({ status: 'COMPLETE', testsStatus: 'PASSING', exitSignal: true, filesModified: 4 });
  });

  it('a bold YAML style header is read', () => {
    expect(parseStatusBlock(lines('**RALPH_STATUS:**', '- **STATUS:** COMPLETE', '- **EXIT_SIGNAL:** true'))).toMatchObject({
      status: 'COMPLETE',
      exitSignal: true,
    });
  });

  it.each(['## RALPH_STATUS', '### RALPH_STATUS', '# ralph_status'])('the heading form %s opens a block', (heading) => {
    expect(parseStatusBlock(lines(heading, 'STATUS: COMPLETE', 'EXIT_SIGNAL: true'))).toMatchObject({ status: 'COMPLETE', exitSignal: true });
  });

  it.each([
    'Remember to end with a RALPH_STATUS: block\nEXIT_SIGNAL: true',
    'The RALPH_STATUS block below says EXIT_SIGNAL: true',
    'See ---RALPH_STATUS--- in the template.\nEXIT_SIGNAL: true',
    'I will print RALPH_STATUS next\nSTATUS: COMPLETE',
  ])('a prose mention of RALPH_STATUS mid-line opens nothing: %j', (text) => {
    expect(parseStatusBlock(text)).toBeUndefined();
  });

  it('text outside the block never sets a field (before or after)', () => {
    const text = lines(
      'HTTP STATUS: 200',
      'EXIT_SIGNAL: true',
      '',
      '---RALPH_STATUS---',
      'EXIT_SIGNAL: false',
      'WORK_TYPE: TESTING',
      '---END_RALPH_STATUS---',
      'STATUS: COMPLETE',
      'FILES_MODIFIED: 8',
    );
    const block = parseStatusBlock(text);
    expect(block?.status).toBeUndefined();
    expect(block?.filesModified).toBeUndefined();
    expect(block?.exitSignal).toBe(false);
    expect(block?.workType).toBe('TESTING');
    expect(Object.keys(block?.fields ?? {})).toEqual(['EXIT_SIGNAL', 'WORK_TYPE']);
  });

  it('without an END marker the block ends at the first blank line', () => {
    const text = lines('---RALPH_STATUS---', 'STATUS: IN_PROGRESS', 'EXIT_SIGNAL: false', '', 'STATUS: COMPLETE', 'EXIT_SIGNAL: true');
    expect(parseStatusBlock(text)).toMatchObject({ status: 'IN_PROGRESS', exitSignal: false });
  });

  it('without an END marker the block ends at the first line that is not KEY: value', () => {
    const text = lines('---RALPH_STATUS---', 'EXIT_SIGNAL: false', 'HTTP STATUS: 200 was returned by the health check', 'STATUS: COMPLETE');
    const block = parseStatusBlock(text);
    expect(block?.exitSignal).toBe(false);
    expect(block?.status).toBeUndefined();
  });

  it('a missing END marker at the end of the text is fine', () => {
    expect(parseStatusBlock(lines('---RALPH_STATUS---', 'STATUS: COMPLETE', 'EXIT_SIGNAL: true'))).toMatchObject({ status: 'COMPLETE', exitSignal: true });
  });

  it('blank lines right after the opener are skipped', () => {
    expect(parseStatusBlock(lines('---RALPH_STATUS---', '', 'EXIT_SIGNAL: true', '---END_RALPH_STATUS---'))?.exitSignal).toBe(true);
  });

  it.each(['maybe', 'false | true', '', 'soon'])('EXIT_SIGNAL %j is not a boolean: ignored with a warning', (value) => {
    const block = parseStatusBlock(lines('---RALPH_STATUS---', `EXIT_SIGNAL: ${value}`, '---END_RALPH_STATUS---'));
    expect(block?.exitSignal).toBeUndefined();
    expect(block?.warnings).toHaveLength(1);
    expect(block?.warnings[0]).toContain('EXIT_SIGNAL');
    expect(block?.warnings[0]).toContain('not true or false');
  });
});

describe('parseStatusBlock: values', () => {
  it.each([
    ['3', 3],
    ['0', 0],
    ['12 files', 12],
    ['**5**', 5],
    ['two', undefined],
    ['', undefined],
    ['-1', undefined],
  ])('FILES_MODIFIED and TASKS_COMPLETED_THIS_LOOP read %j as %j', (value, n) => {
    const block = parseStatusBlock(lines('---RALPH_STATUS---', `FILES_MODIFIED: ${value}`, `TASKS_COMPLETED_THIS_LOOP: ${value}`, '---END_RALPH_STATUS---'));
    expect(block?.filesModified).toBe(n);
    expect(block?.tasksCompleted).toBe(n);
  });

  it.each([
    ['complete', 'COMPLETE'],
    ['In Progress', 'IN_PROGRESS'],
    ['in-progress', 'IN_PROGRESS'],
    ['**BLOCKED**', 'BLOCKED'],
  ])('STATUS %j is normalized to %j', (value, status) => {
    expect(parseStatusBlock(lines('---RALPH_STATUS---', `STATUS: ${value}`, '---END_RALPH_STATUS---'))?.status).toBe(status);
  });

  it('WORK_TYPE and TESTS_STATUS are normalized the same way', () => {
    const block = parseStatusBlock(lines('---RALPH_STATUS---', 'WORK_TYPE: testing', 'TESTS_STATUS: not run', '---END_RALPH_STATUS---'));
    expect(block?.workType).toBe('TESTING');
    expect(block?.testsStatus).toBe('NOT_RUN');
  });

  it('RECOMMENDATION keeps its text, colons included', () => {
    expect(parseStatusBlock(lines('---RALPH_STATUS---', 'RECOMMENDATION: Next: wire up the CLI (see: docs)', '---END_RALPH_STATUS---'))?.recommendation).toBe(
      'Next: wire up the CLI (see: docs)',
    );
  });

  it('empty values set nothing', () => {
    const block = parseStatusBlock(lines('---RALPH_STATUS---', 'STATUS:', 'WORK_TYPE:', 'RECOMMENDATION:', '---END_RALPH_STATUS---'));
    expect(block?.status).toBeUndefined();
    expect(block?.workType).toBeUndefined();
    expect(block?.recommendation).toBeUndefined();
  });

  it('unknown keys are kept in fields without setting anything else', () => {
    const block = parseStatusBlock(lines('---RALPH_STATUS---', 'CONFIDENCE: high', 'EXIT_SIGNAL: false', '---END_RALPH_STATUS---'));
    expect(block?.fields['CONFIDENCE']).toBe('high');
  });
});

describe('withoutStatusBlock', () => {
  it('removes the last block and keeps the prose around it', () => {
    const text = `Before.\n${TEMPLATE_BLOCK}\nAfter.`;
    expect(withoutStatusBlock(text)).toBe('Before.\nAfter.');
  });

  it('removes only the last block', () => {
    const text = lines(
      '---RALPH_STATUS---',
      'EXIT_SIGNAL: true',
      '---END_RALPH_STATUS---',
      'middle',
      '---RALPH_STATUS---',
      'EXIT_SIGNAL: false',
      '---END_RALPH_STATUS---',
    );
    expect(withoutStatusBlock(text)).toBe(lines('---RALPH_STATUS---', 'EXIT_SIGNAL: true', '---END_RALPH_STATUS---', 'middle'));
  });

  it('without an END marker, removes the block up to the next blank line', () => {
    const text = lines('Prose.', 'RALPH_STATUS:', '  EXIT_SIGNAL: true', '  STATUS: COMPLETE', '', 'Trailing note.');
    expect(withoutStatusBlock(text)).toBe(lines('Prose.', '', 'Trailing note.'));
  });

  it('leaves a text without a block unchanged', () => {
    expect(withoutStatusBlock('Should I continue?\nSTATUS: COMPLETE')).toBe('Should I continue?\nSTATUS: COMPLETE');
  });
});
