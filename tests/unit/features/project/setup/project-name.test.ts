import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../../src/errors.js';
import { deriveDisplayName, deriveProjectName, resolveProjectDir, slugProjectName } from '../../../../../src/features/project/setup/project-name.js';

describe('slugProjectName', () => {
  it.each([
    ['my-project', 'my-project'],
    ['my_project', 'my_project'],
    ['My Project', 'My-Project'],
    ['  spaced   out  ', 'spaced-out'],
    ['Todo App: v2 (draft)!', 'Todo-App-v2-draft'],
    ['café über', 'café-über'],
    ['a/b\\c', 'a-b-c'],
    ['..hidden..', 'hidden'],
    ['---', 'project'],
    ['', 'project'],
    ['release.1.2', 'release.1.2'],
  ])('%j → %j', (raw, slug) => {
    expect(slugProjectName(raw)).toBe(slug);
  });
});

describe('deriveProjectName', () => {
  it.each([
    ['prd.md', 'prd'],
    ['docs/My PRD.v2.md', 'My-PRD.v2'],
    ['/abs/path/Todo-App.json', 'Todo-App'],
    ['notes', 'notes'],
    ['.hidden.txt', 'hidden'],
  ])('%j → %j', (path, name) => {
    expect(deriveProjectName(path)).toBe(name);
  });
});

describe('resolveProjectDir', () => {
  const cwd = '/work/here';

  it.each([
    ['my-project', join(cwd, 'my-project')],
    ['name with spaces', join(cwd, 'name with spaces')],
    ['a/b/c', join(cwd, 'a/b/c')],
    ['/elsewhere/proj', '/elsewhere/proj'],
    ['.', cwd],
  ])('%j → %j', (raw, dir) => {
    expect(resolveProjectDir(raw, cwd)).toBe(dir);
  });

  it.each([[''], ['   '], ['../outside'], ['a/../../b'], ['bad\nname']])('refuses %j as a usage error', (raw) => {
    expect(() => resolveProjectDir(raw, cwd)).toThrow(UsageError);
  });

  it('names a project after its last folder', () => {
    expect(deriveDisplayName('/x/y/My App')).toBe('My App');
  });
});
