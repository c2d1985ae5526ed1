import { describe, expect, it } from 'vitest';
import { EXCLUDE_BEGIN, EXCLUDE_END, placeholderExcludeBlock, withoutPlaceholderBlock } from '../../../src/core/sandbox-placeholders.js';

describe('the exclude block of the placeholders', () => {
  it('anchors each missing name at the root', () => {
    expect(placeholderExcludeBlock(['.bashrc', '.claude'])).toBe(`${EXCLUDE_BEGIN}\n/.bashrc\n/.claude\n${EXCLUDE_END}\n`);
    expect(placeholderExcludeBlock([])).toBe('');
  });

  it("comes out again whole, every copy of it, leaving the user's lines", () => {
    const user = '# git ls-files --others --exclude-from=.git/info/exclude\n*.log\n';
    const twice = `${user}${placeholderExcludeBlock(['.bashrc'])}build/\n${placeholderExcludeBlock(['.idea'])}`;
    expect(withoutPlaceholderBlock(twice)).toBe(`${user}build/\n`);
    expect(withoutPlaceholderBlock(user)).toBe(user);
  });
});
