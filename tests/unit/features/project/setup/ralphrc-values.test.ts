import { describe, expect, it } from 'vitest';
import { parseRalphrc } from '../../../../../src/config/ralphrc.js';
import { quoteRalphrcValue, setRalphrcValue } from '../../../../../src/features/project/setup/ralphrc-values.js';

function readBack(text: string, key: string): string | undefined {
  const parsed = parseRalphrc(text);
  expect(parsed.errors).toEqual([]);
  return parsed.entries.filter((e) => e.key === key).at(-1)?.value;
}

describe('quoteRalphrcValue', () => {
  it.each([
    ['npm', 'npm'],
    ['npm test', '"npm test"'],
    ['', '""'],
    ['uv run pytest -k "not slow"', '"uv run pytest -k \\"not slow\\""'],
    ['echo $HOME', '"echo \\$HOME"'],
    ['a\\b', '"a\\\\b"'],
    ['echo `date`', "'echo `date`'"],
    ['Bash(git *),Read', '"Bash(git *),Read"'],
    ['x # not a comment', '"x # not a comment"'],
  ])('%j is written as %s and read back unchanged', (value, quoted) => {
    expect(quoteRalphrcValue(value)).toBe(quoted);
    expect(readBack(`K=${quoted}\n`, 'K')).toBe(value);
  });

  it('refuses values that cannot be written on one line', () => {
    expect(() => quoteRalphrcValue('a\nb')).toThrow(/one line/);
    expect(() => quoteRalphrcValue("`it's`")).toThrow(/backtick/);
  });
});

describe('setRalphrcValue', () => {
  const base = ['# header', 'MAX_CALLS_PER_HOUR=100', '', '# The verify command.', '# VERIFY_COMMAND=""', 'OTHER=1', ''].join('\n');

  it('replaces the active line in place', () => {
    const out = setRalphrcValue(base, 'MAX_CALLS_PER_HOUR', '50');
    expect(out.split('\n')[1]).toBe('MAX_CALLS_PER_HOUR=50');
    expect(out.split('\n').length).toBe(base.split('\n').length);
  });

  it('replaces the commented default line when there is no active one', () => {
    const out = setRalphrcValue(base, 'VERIFY_COMMAND', 'npm test');
    expect(out).toContain('# The verify command.\nVERIFY_COMMAND="npm test"\nOTHER=1');
    expect(readBack(out, 'VERIFY_COMMAND')).toBe('npm test');
  });

  it('writes a commented proposal with a note', () => {
    const out = setRalphrcValue(base, 'VERIFY_COMMAND', 'cargo test', { commented: true, note: ['Proposed.'] });
    expect(out).toContain('# Proposed.\n# VERIFY_COMMAND="cargo test"\nOTHER=1');
    expect(readBack(out, 'VERIFY_COMMAND')).toBeUndefined();
  });

  it('prefers the active line over a commented one and keeps export', () => {
    const text = '# MODEL=old\nexport MODEL=x\n';
    expect(setRalphrcValue(text, 'MODEL', 'y')).toBe('# MODEL=old\nMODEL=y\n');
  });

  it('appends a key that is not there', () => {
    expect(setRalphrcValue('A=1\n', 'B', 'two words')).toBe('A=1\nB="two words"\n');
    expect(setRalphrcValue('A=1', 'B', '2')).toBe('A=1\nB=2\n');
  });

  it('does not match a key that merely ends with the same name', () => {
    expect(setRalphrcValue('XVERIFY_COMMAND=a\n', 'VERIFY_COMMAND', 'b')).toBe('XVERIFY_COMMAND=a\nVERIFY_COMMAND=b\n');
  });
});
