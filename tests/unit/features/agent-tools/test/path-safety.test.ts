import { describe, expect, it } from 'vitest';
import { checkRelativePath, isInside } from '../../../../../src/features/agent-tools/test/path-safety.js';

describe('checkRelativePath', () => {
  it.each([
    ['src/main.rs', undefined],
    ['.ralph/fix_plan.md', undefined],
    ['a..b/c', undefined],
    ['', 'empty'],
    ['   ', 'empty'],
    ['../x', '".."'],
    ['a/../../x', '".."'],
    ['a\\..\\x', '".."'],
    ['/etc/passwd', 'absolute'],
    ['\\\\server\\share', 'absolute'],
    ['C:/Windows', 'absolute'],
    ['a\u0000b', 'NUL'],
  ])('%j → %s', (path, problem) => {
    const result = checkRelativePath(path);
    if (problem === undefined) expect(result).toBeUndefined();
    else expect(result).toContain(problem);
  });
});

describe('isInside', () => {
  it.each([
    ['/tmp/ws', '/tmp/ws', true],
    ['/tmp/ws', '/tmp/ws/a/b', true],
    ['/tmp/ws', '/tmp/ws2/a', false],
    ['/tmp/ws', '/tmp', false],
    ['/tmp/ws/', '/tmp/ws/a', true],
  ])('%s contains %s: %s', (root, path, expected) => {
    expect(isInside(root, path)).toBe(expected);
  });
});
