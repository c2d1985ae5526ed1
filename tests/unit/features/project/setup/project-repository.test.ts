import { describe, expect, it } from 'vitest';
import { commitInitialSetup, FALLBACK_IDENTITY, INITIAL_COMMIT_MESSAGE } from '../../../../../src/features/project/setup/project-repository.js';
import { NO_HOOKS } from '../../../../../src/infra/git.js';
import { fakeRunner, type FakeCommand } from '../../../../helpers/fake-runner.js';

/** A repository whose top level is /p, git with a global identity; `extra` rows come first. */
function git(extra: FakeCommand[] = []) {
  return fakeRunner([
    ...extra,
    { command: 'git rev-parse --show-toplevel', result: { exitCode: 128, stderr: 'fatal: not a git repository' } },
    { command: 'git init' },
    { command: 'git config user.name', result: { stdout: 'Jo User\n' } },
    { command: 'git config user.email', result: { stdout: 'jo@example.com\n' } },
    { command: 'git add' },
    { command: 'git diff --cached --quiet', result: { exitCode: 1 } },
    { command: 'git commit' },
  ]);
}

const files = ['.ralph/PROMPT.md', '.ralphrc'];

describe('commitInitialSetup', () => {
  it('a new repository gets one commit of exactly the set-up files, made with the user identity and hooks, never signed', async () => {
    const runner = git();
    const result = await commitInitialSetup('/tmp', files, { newFolder: true, runner });
    expect(result).toEqual({ repository: 'created', committed: true, identitySet: false, warnings: [] });
    expect(runner.lines()).toEqual([
      'git rev-parse --show-toplevel',
      'git init -q',
      'git config user.name',
      'git config user.email',
      'git add -- .ralph/PROMPT.md .ralphrc',
      'git diff --cached --quiet -- .ralph/PROMPT.md .ralphrc',
      `git commit -q -m ${INITIAL_COMMIT_MESSAGE} --only -- .ralph/PROMPT.md .ralphrc`,
    ]);
    const commit = runner.calls.at(-1);
    expect(commit?.args).toContain('commit.gpgsign=false');
    expect(commit?.args).not.toContain(NO_HOOKS[1]);
    expect(commit?.options.env?.['GIT_AUTHOR_NAME']).toBeUndefined();
  });

  it('sets a local identity only for what git has none of', async () => {
    const runner = git([{ command: 'git config user.email', result: { stdout: '' } }, { command: 'git config --local user.email' }]);
    const result = await commitInitialSetup('/tmp', files, { newFolder: true, runner });
    expect(result.identitySet).toBe(true);
    expect(runner.lines()).toContain(`git config --local user.email ${FALLBACK_IDENTITY.email}`);
    expect(runner.lines().filter((l) => l.startsWith('git config --local'))).toHaveLength(1);
  });

  it('without git, says so and does nothing else', async () => {
    const runner = git([{ command: 'git rev-parse', result: { exitCode: undefined, spawnError: 'command not found: git' } }]);
    const result = await commitInitialSetup('/tmp', files, { newFolder: true, runner });
    expect(result).toMatchObject({ repository: 'no-git', committed: false });
    expect(result.warnings[0]).toMatch(/git is not installed/);
    expect(runner.calls).toHaveLength(1);
  });

  it('an existing folder inside another repository commits nothing there', async () => {
    const runner = git([{ command: 'git rev-parse --show-toplevel', result: { stdout: '/somewhere/else\n' } }]);
    const result = await commitInitialSetup('/tmp', files, { newFolder: false, runner });
    expect(result.repository).toBe('parent');
    expect(result.warnings[0]).toContain('/somewhere/else');
    expect(runner.lines()).toEqual(['git rev-parse --show-toplevel']);
  });

  it('nothing new to commit: no commit', async () => {
    const runner = git([{ command: 'git diff --cached --quiet', result: { exitCode: 0 } }]);
    const result = await commitInitialSetup('/tmp', files, { newFolder: true, runner });
    expect(result.committed).toBe(false);
    expect(runner.lines().some((l) => l.startsWith('git commit'))).toBe(false);
  });

  it('a failed add or commit becomes a warning naming git’s first line', async () => {
    const addFails = git([{ command: 'git add', result: { exitCode: 128, stderr: "fatal: pathspec '.ralphrc' did not match any files\n" } }]);
    expect((await commitInitialSetup('/tmp', files, { newFolder: true, runner: addFails })).warnings).toEqual([
      `git add failed, nothing was committed: fatal: pathspec '.ralphrc' did not match any files`,
    ]);
    const commitFails = git([{ command: 'git commit', result: { exitCode: 1, stderr: 'error: hook declined\n' } }]);
    const result = await commitInitialSetup('/tmp', files, { newFolder: true, runner: commitFails });
    expect(result).toMatchObject({ committed: false, warnings: ["git commit failed, Ralph's files are not committed: error: hook declined"] });
  });
});
