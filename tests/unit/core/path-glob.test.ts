import { describe, expect, it } from 'vitest';
import { checkGlobPattern, compileGlobs, pathGlobToRegExp } from '../../../src/core/path-glob.js';

describe('pathGlobToRegExp', () => {
  it.each([
    ['*.rs', 'main.rs', true],
    ['*.rs', 'src/deep/main.rs', true],
    ['*.rs', 'main.rsx', false],
    ['src/*.rs', 'src/main.rs', true],
    ['src/*.rs', 'src/a/main.rs', false],
    ['src/**', 'src/a/b/c.txt', true],
    ['src/**', 'srcx/a.txt', false],
    ['src/', 'src/a.txt', true],
    ['**/*.md', 'README.md', true],
    ['**/*.md', 'docs/x/y.md', true],
    ['docs/**/*.md', 'docs/y.md', true],
    ['a?c.txt', 'abc.txt', true],
    ['a?c.txt', 'a/c.txt', false],
    ['.ralph/.*', '.ralph/.circuit_breaker_state', true],
    ['.ralph/.*', '.ralph/fix_plan.md', false],
    ['./src/a.txt', 'src/a.txt', true],
    ['file(1).txt', 'file(1).txt', true],
  ])('%s matches %s: %s', (pattern, path, expected) => {
    expect(pathGlobToRegExp(pattern).test(path)).toBe(expected);
  });

  it('compileGlobs matches any of several patterns', () => {
    const match = compileGlobs(['*.md', 'src/**']);
    expect(['a.md', 'src/x.ts', 'lib/x.ts'].map(match)).toEqual([true, true, false]);
  });

  it.each([
    ['', 'empty'],
    ['/etc/*', 'absolute'],
    ['../*', '".."'],
    ['a/../../b', '".."'],
    ['C:\\x', 'absolute'],
  ])('refuses %j', (pattern, word) => {
    expect(checkGlobPattern(pattern)).toContain(word);
  });

  it('accepts ordinary patterns', () => {
    expect(checkGlobPattern('src/**/*.ts')).toBeUndefined();
  });
});
