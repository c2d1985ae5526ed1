import { describe, expect, it } from 'vitest';
import {
  boolean,
  commandLine,
  commaList,
  decimal,
  envPairs,
  integer,
  oneOf,
  splitCommandLine,
  splitTopLevelCommas,
  text,
  toolList,
} from '../../../src/config/value-types.js';

describe('integer', () => {
  const minutes = integer(1, 120, 'minutes');

  it.each([
    ['1', 1],
    ['120', 120],
    ['15', 15],
    [' 30 ', 30],
  ])('accepts %j', (raw, value) => {
    expect(minutes.parse(raw)).toEqual({ ok: true, value });
  });

  it.each(['0', '121', '-5', 'abc', '1.5', '', '   ', '1e2', '0x10', '15 min', '9007199254740993'])('rejects %j', (raw) => {
    expect(minutes.parse(raw)).toEqual({ ok: false, expected: 'a whole number from 1 to 120 (minutes)' });
  });

  it.each([
    [integer(0), 'a whole number ≥ 0'],
    [integer(1), 'a whole number ≥ 1'],
    [integer(1, 100_000), 'a whole number from 1 to 100000'],
    [integer(0, Number.MAX_SAFE_INTEGER, 'minutes'), 'a whole number ≥ 0 (minutes)'],
  ])('describes its range: %#', (type, expected) => {
    expect(type.expected).toBe(expected);
  });

  it('accepts zero only when the minimum allows it', () => {
    expect(integer(0).parse('0')).toEqual({ ok: true, value: 0 });
    expect(integer(1).parse('0').ok).toBe(false);
    expect(integer(0).parse('-1').ok).toBe(false);
  });

  it('formats a value back as plain digits', () => {
    expect(minutes.format(15)).toBe('15');
  });
});

describe('decimal', () => {
  const usd = decimal(0, 'USD');

  it.each([
    ['0', 0],
    ['2', 2],
    ['2.5', 2.5],
    [' 10.25 ', 10.25],
  ])('accepts %j', (raw, value) => {
    expect(usd.parse(raw)).toEqual({ ok: true, value });
  });

  it.each(['-1', 'abc', '1e3', '.5', '5.', '', '1,5'])('rejects %j', (raw) => {
    expect(usd.parse(raw)).toEqual({ ok: false, expected: 'a number ≥ 0 (USD)' });
  });

  it('enforces its minimum', () => {
    expect(decimal(1).parse('0.5')).toEqual({ ok: false, expected: 'a number ≥ 1' });
  });
});

describe('boolean', () => {
  it.each(['true', 'TRUE', 'True', 'yes', ' Yes ', 'on', 'ON', '1'])('reads %j as true', (raw) => {
    expect(boolean.parse(raw)).toEqual({ ok: true, value: true });
  });

  it.each(['false', 'FALSE', 'no', 'No', 'off', '0'])('reads %j as false', (raw) => {
    expect(boolean.parse(raw)).toEqual({ ok: true, value: false });
  });

  it.each(['maybe', '', 'y', 'n', '2', 'truee'])('rejects %j and says what is accepted', (raw) => {
    expect(boolean.parse(raw)).toEqual({ ok: false, expected: 'true or false (also yes/no, on/off, 1/0)' });
  });
});

describe('oneOf', () => {
  const format = oneOf(['json', 'text'] as const);

  it.each([
    ['json', 'json'],
    ['JSON', 'json'],
    [' text ', 'text'],
  ])('accepts %j case-insensitively as %j', (raw, value) => {
    expect(format.parse(raw)).toEqual({ ok: true, value });
  });

  it.each(['xml', '', 'jsonl'])('rejects %j listing the choices', (raw) => {
    expect(format.parse(raw)).toEqual({ ok: false, expected: 'one of json, text' });
  });
});

describe('text', () => {
  it('keeps the value verbatim', () => {
    expect(text.parse('  spaced  $x ')).toEqual({ ok: true, value: '  spaced  $x ' });
  });
});

describe('splitTopLevelCommas', () => {
  it.each([
    ['Write,Read', ['Write', 'Read']],
    [' Write , Read ,Edit ', ['Write', 'Read', 'Edit']],
    ['Bash(a, b),Read', ['Bash(a, b)', 'Read']],
    ['Bash(git commit -m "x, y"),Bash(npm *)', ['Bash(git commit -m "x, y")', 'Bash(npm *)']],
    ['Write,,Read,', ['Write', 'Read']],
    [' , ', []],
    ['', []],
    ['a)b,c', ['a)b', 'c']],
  ])('%j → %j', (raw, items) => {
    expect(splitTopLevelCommas(raw)).toEqual(items);
  });
});

describe('commaList', () => {
  it('splits and formats back with commas', () => {
    const list = commaList();
    expect(list.parse('Optional, Future')).toEqual({ ok: true, value: ['Optional', 'Future'] });
    expect(list.format(['Optional', 'Future'])).toBe('Optional,Future');
  });
});

describe('toolList', () => {
  it.each([
    ['Write,Read,Edit', ['Write', 'Read', 'Edit']],
    ['mcp__server__tool', ['mcp__server__tool']],
    ['mcp__github__create_issue,Read', ['mcp__github__create_issue', 'Read']],
    ['Agent', ['Agent']],
    ['Skill', ['Skill']],
    ['Bash(git *)', ['Bash(git *)']],
    ['Bash(git *),Bash(npm run test:*)', ['Bash(git *)', 'Bash(npm run test:*)']],
    ['WebFetch(domain:x)', ['WebFetch(domain:x)']],
    ['WebFetch(domain:example.com),WebSearch', ['WebFetch(domain:example.com)', 'WebSearch']],
    ['*', ['*']],
    ['NotebookEdit, TodoWrite', ['NotebookEdit', 'TodoWrite']],
    ['Bash(mvn clean, install)', ['Bash(mvn clean, install)']],
  ])('accepts %j', (raw, tools) => {
    expect(toolList.parse(raw)).toEqual({ ok: true, value: tools });
  });

  it('rejects names separated by spaces and says to use commas', () => {
    const parsed = toolList.parse('Write Read');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.expected).toContain('"Write Read" is not a tool name');
      expect(parsed.expected).toContain('separate tool names with commas');
    }
  });

  it.each(['Bash(git *', '(git *)', '123', 'Write;Read', 'Bash()', '-Write'])('rejects %j', (raw) => {
    const parsed = toolList.parse(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.expected).toContain('is not a tool name');
      expect(parsed.expected).not.toContain('separate tool names with commas');
    }
  });

  it('names the offending item among valid ones', () => {
    const parsed = toolList.parse('Write,Re ad,Edit');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.expected).toContain('"Re ad"');
  });

  it('formats a list back with commas', () => {
    expect(toolList.format(['Write', 'Bash(git *)'])).toBe('Write,Bash(git *)');
  });
});

describe('envPairs', () => {
  it.each([
    ['A=1', { A: '1' }],
    ['A=1,B=two', { A: '1', B: 'two' }],
    [' A=1 , B=2 ', { A: '1', B: '2' }],
    ['URL=a=b', { URL: 'a=b' }],
    ['EMPTY=', { EMPTY: '' }],
    ['', {}],
  ])('%j → %j', (raw, value) => {
    expect(envPairs.parse(raw)).toEqual({ ok: true, value });
  });

  it.each(['bad', '1A=2', '=x', 'A-B=1', 'A=1,oops'])('rejects %j naming the item', (raw) => {
    const parsed = envPairs.parse(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.expected).toContain('is not KEY=VALUE');
  });

  it('formats pairs back', () => {
    expect(envPairs.format({ A: '1', B: '2' })).toBe('A=1,B=2');
  });
});

describe('splitCommandLine', () => {
  it.each([
    ['claude', ['claude']],
    ['  claude  ', ['claude']],
    ['npx @anthropic-ai/claude-code', ['npx', '@anthropic-ai/claude-code']],
    ['"/opt/my tools/claude" --debug', ['/opt/my tools/claude', '--debug']],
    ["'/opt/my tools/claude'", ['/opt/my tools/claude']],
    ['my\\ claude', ['my claude']],
    ['a"b"c', ['abc']],
    ['"say \\"hi\\""', ['say "hi"']],
    ["'a\\b'", ['a\\b']],
    ['""', ['']],
    ['a\tb\nc', ['a', 'b', 'c']],
    ['', []],
  ])('%j → %j', (raw, words) => {
    expect(splitCommandLine(raw)).toEqual(words);
  });

  it.each(['"unterminated', "'open", 'claude "x'])('returns undefined for the unterminated quote in %j', (raw) => {
    expect(splitCommandLine(raw)).toBeUndefined();
  });
});

describe('commandLine', () => {
  it('accepts a command with arguments', () => {
    expect(commandLine.parse('npx @anthropic-ai/claude-code')).toEqual({ ok: true, value: ['npx', '@anthropic-ai/claude-code'] });
  });

  it.each(['', '   ', '"unterminated'])('rejects %j', (raw) => {
    expect(commandLine.parse(raw)).toEqual({ ok: false, expected: commandLine.expected });
  });

  it('formats words so they split back the same way', () => {
    const words = ['/opt/my tools/claude', '--flag', 'plain'];
    const formatted = commandLine.format(words);
    expect(formatted).toBe('"/opt/my tools/claude" --flag plain');
    expect(splitCommandLine(formatted)).toEqual(words);
  });
});
