import { describe, expect, it } from 'vitest';
import {
  gitArguments,
  gitEnvironment,
  NO_HOOKS,
  NO_REPOSITORY_COMMANDS,
  NO_SIGNING,
  ownRepositoryConfig,
  RALPH_IDENTITY,
  runGitText,
} from '../../../src/infra/git.js';
import { fakeRunner } from '../../helpers/fake-runner.js';

const parent = {
  PATH: '/usr/bin',
  HOME: '/home/u',
  GIT_DIR: '/elsewhere/.git',
  GIT_INDEX_FILE: '/elsewhere/index',
  GIT_WORK_TREE: '/elsewhere',
  GIT_COMMON_DIR: '/c',
  GIT_PREFIX: 'sub/',
  GIT_OBJECT_DIRECTORY: '/o',
  GIT_AUTHOR_NAME: 'Hook Author',
};

describe('gitEnvironment', () => {
  it('drops every variable that would point git at another repository or index, and keeps the rest', () => {
    const env = gitEnvironment(parent);
    for (const name of ['GIT_DIR', 'GIT_INDEX_FILE', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_PREFIX', 'GIT_OBJECT_DIRECTORY'])
      expect(env).not.toHaveProperty(name);
    expect(env).toMatchObject({ PATH: '/usr/bin', HOME: '/home/u', GIT_AUTHOR_NAME: 'Hook Author' });
  });

  it('lets through what a call sets on purpose (a private index)', () => {
    expect(gitEnvironment(parent, { env: { GIT_INDEX_FILE: '/repo/.git/ralph/index-1' } })['GIT_INDEX_FILE']).toBe('/repo/.git/ralph/index-1');
  });

  it('a fixed identity sets author and committer; a time fixes both dates', () => {
    expect(gitEnvironment(parent, { identity: RALPH_IDENTITY, at: 1_767_000_000_999 })).toMatchObject({
      GIT_AUTHOR_NAME: 'Ralph',
      GIT_AUTHOR_EMAIL: 'ralph@localhost',
      GIT_COMMITTER_NAME: 'Ralph',
      GIT_COMMITTER_EMAIL: 'ralph@localhost',
      GIT_AUTHOR_DATE: '@1767000000 +0000',
      GIT_COMMITTER_DATE: '@1767000000 +0000',
    });
  });

  it('without an identity the repository user commits, and nothing about dates is set', () => {
    const env = gitEnvironment({ PATH: '/usr/bin' });
    expect(Object.keys(env)).toEqual(['PATH']);
  });

  it('never changes the environment it was given', () => {
    const base = { ...parent };
    gitEnvironment(base, { identity: RALPH_IDENTITY, env: { GIT_INDEX_FILE: 'x' } });
    expect(base).toEqual(parent);
  });
});

describe('gitArguments', () => {
  it('turns hooks, fsmonitor and signing off before the command', () => {
    expect(gitArguments(['commit', '-q'])).toEqual([...NO_HOOKS, ...NO_REPOSITORY_COMMANDS, ...NO_SIGNING, 'commit', '-q']);
    expect(NO_HOOKS).toEqual(['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false']);
    expect(NO_SIGNING).toEqual(['-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false']);
  });

  it("keeps the user's hooks for a commit made on the user's behalf, never signing", () => {
    expect(gitArguments(['commit'], { hooks: 'user' })).toEqual([...NO_SIGNING, 'commit']);
  });
});

describe('runGitText', () => {
  it('runs git through the runner with the sanitized setup', async () => {
    const runner = fakeRunner([{ command: 'git rev-parse', result: { stdout: 'abc\n' } }]);
    const result = await runGitText(runner, ['rev-parse', 'HEAD'], { cwd: '/repo', input: 'in', env: { GIT_INDEX_FILE: '/i' } });
    expect(result.stdout).toBe('abc\n');
    const [call] = runner.calls;
    expect(call?.args).toEqual([...NO_HOOKS, ...NO_REPOSITORY_COMMANDS, ...NO_SIGNING, 'rev-parse', 'HEAD']);
    expect(call?.options).toMatchObject({ cwd: '/repo', input: 'in' });
    expect(call?.options.env?.['GIT_INDEX_FILE']).toBe('/i');
  });
});

describe('ownRepositoryConfig', () => {
  it('gives a repository Ralph creates its own identity and turns signing off in it', () => {
    expect(ownRepositoryConfig({ name: 'Ralph Demo', email: 'ralph-demo@localhost' })).toEqual([
      ['user.name', 'Ralph Demo'],
      ['user.email', 'ralph-demo@localhost'],
      ['commit.gpgsign', 'false'],
    ]);
  });
});
