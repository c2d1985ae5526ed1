import { describe, expect, it } from 'vitest';
import { configVariables, driverOverrides, layoutChange, parseScopedSettings, type RepositoryLayout } from '../../../src/core/git-command-config.js';

const listing = [
  'local',
  'filter.evil.clean\nrun-me',
  'global',
  'filter.lfs.process\ngit-lfs filter-process',
  'worktree',
  'diff.Odd=Name.textconv\nx',
  'local',
  'merge.m.driver\ny',
  '',
].join('\0');

describe('parseScopedSettings', () => {
  it('reads scope, key and value from `git config -z --show-scope` output', () => {
    expect(parseScopedSettings(listing)).toEqual([
      { scope: 'local', key: 'filter.evil.clean', value: 'run-me' },
      { scope: 'global', key: 'filter.lfs.process', value: 'git-lfs filter-process' },
      { scope: 'worktree', key: 'diff.Odd=Name.textconv', value: 'x' },
      { scope: 'local', key: 'merge.m.driver', value: 'y' },
    ]);
  });
});

describe('driverOverrides', () => {
  it("switches off every driver the repository's own configuration names, and leaves the user's global ones", () => {
    expect(driverOverrides(parseScopedSettings(listing))).toEqual([
      ['filter.evil.clean', ''],
      ['filter.evil.smudge', ''],
      ['filter.evil.process', ''],
      ['filter.evil.required', 'false'],
      ['diff.Odd=Name.textconv', ''],
      ['diff.Odd=Name.command', ''],
      ['merge.m.driver', ''],
    ]);
  });
});

describe('configVariables', () => {
  it('numbers the overrides after the GIT_CONFIG_* pairs already in the environment', () => {
    expect(configVariables([['filter.a=b.clean', '']], { GIT_CONFIG_COUNT: '2' })).toEqual({
      GIT_CONFIG_COUNT: '3',
      GIT_CONFIG_KEY_2: 'filter.a=b.clean',
      GIT_CONFIG_VALUE_2: '',
    });
    expect(configVariables([], {})).toEqual({});
    expect(configVariables([['k.v', '1']], { GIT_CONFIG_COUNT: 'junk' })['GIT_CONFIG_COUNT']).toBe('1');
  });
});

describe('layoutChange', () => {
  const layout: RepositoryLayout = { dotGit: '/p/.git dir 1:2', gitDir: '/p/.git 1:2', commondir: 'none', commonDir: '/p/.git 1:2', configFiles: '1:3:10' };
  it('names what moved, and the configuration files only while they matter', () => {
    expect(layoutChange(layout, { ...layout }, true)).toBeUndefined();
    expect(layoutChange(layout, { ...layout, commondir: '/p/evil\n', commonDir: '/p/evil 1:9' }, false)).toBe(
      'its .git/commondir, the common git dir it points to',
    );
    expect(layoutChange(layout, { ...layout, configFiles: '1:4:11' }, false)).toBeUndefined();
    expect(layoutChange(layout, { ...layout, configFiles: '1:4:11' }, true)).toBe('its git configuration files');
    expect(layoutChange(layout, undefined, false)).toBe('the repository is gone');
    expect(layoutChange(undefined, layout, true)).toBeUndefined();
  });
});
