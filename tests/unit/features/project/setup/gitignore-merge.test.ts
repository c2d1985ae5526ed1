import { describe, expect, it } from 'vitest';
import { MERGE_HEADER, mergeGitignore, listRalphIgnoreEntries } from '../../../../../src/features/project/setup/gitignore-merge.js';
import { readTemplate } from '../../../../../src/features/project/templates.js';

const TEMPLATE = '# Ralph\n.ralph/logs/\n.ralph/status.json\n\n# OS\n.DS_Store\n';

describe('listRalphIgnoreEntries', () => {
  it('takes the first block without comments', () => {
    expect(listRalphIgnoreEntries(TEMPLATE)).toEqual(['.ralph/logs/', '.ralph/status.json']);
  });

  it('covers the state files in the real template', () => {
    const entries = listRalphIgnoreEntries(readTemplate('gitignore'));
    expect(entries).toContain('.ralph/logs/');
    expect(entries).toContain('.ralph/.circuit_breaker_state');
    expect(entries).not.toContain('node_modules/');
  });
});

describe('mergeGitignore', () => {
  it('appends only the missing entries under a header', () => {
    const merged = mergeGitignore('node_modules/\n.ralph/logs/\n', TEMPLATE);
    expect(merged?.added).toEqual(['.ralph/status.json']);
    expect(merged?.text).toBe(`node_modules/\n.ralph/logs/\n\n${MERGE_HEADER}\n.ralph/status.json\n`);
  });

  it('is idempotent', () => {
    const once = mergeGitignore('dist/', TEMPLATE);
    expect(once?.text.startsWith('dist/\n\n')).toBe(true);
    expect(mergeGitignore(once?.text ?? '', TEMPLATE)).toBeUndefined();
  });

  it('keeps CRLF files CRLF and handles an empty file', () => {
    expect(mergeGitignore('a\r\n', TEMPLATE)?.text).toBe(`a\r\n\r\n${MERGE_HEADER}\r\n.ralph/logs/\r\n.ralph/status.json\r\n`);
    expect(mergeGitignore('', TEMPLATE)?.text).toBe(`${MERGE_HEADER}\n.ralph/logs/\n.ralph/status.json\n`);
  });
});
