// When the loop checkpoints, when it refuses to run unprotected, and what a failed
// agent call that changed files amounts to. Real git repositories in odd states.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../helpers/git-repo.js';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, fakeClaude, ralph, readJson, readJsonLines, resultJson, statusBlock } from '../helpers/run-cli.js';

const working = (text = 'Working.'): string => `${text}\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`;
const done = (text = 'Done.'): string => `${text}\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`;
const mock = (...args: string[]): string[] => ['--backend', 'mock', '--pause', '0', ...args];

function events(dir: string, name: string): Array<Record<string, unknown>> {
  const path = join(dir, '.ralph', 'logs', 'session.jsonl');
  if (!existsSync(path)) return [];
  return readJsonLines(path)
    .filter((e) => e['event'] === name)
    .map((e) => e['data'] as Record<string, unknown>);
}

function contextOf(call: { argv: string[] } | undefined): string {
  const argv = call?.argv ?? [];
  return argv[argv.indexOf('--append-system-prompt') + 1] ?? '';
}

function checkpointRefsAndStash(dir: string): string {
  return `${git(dir, 'stash', 'list')}${git(dir, 'for-each-ref', 'refs/ralph/checkpoints')}`;
}

/** A project whose last commit left `app.js` in an unresolved merge conflict. */
function conflictedProject(): string {
  const dir = ralphProject({ files: { 'app.js': 'base\n' } });
  git(dir, 'checkout', '-q', '-b', 'other');
  writeFileSync(join(dir, 'app.js'), 'theirs\n');
  git(dir, 'commit', '-q', '-am', 'theirs');
  git(dir, 'checkout', '-q', 'main');
  writeFileSync(join(dir, 'app.js'), 'ours\n');
  git(dir, 'commit', '-q', '-am', 'ours');
  try {
    git(dir, 'merge', '-q', 'other');
  } catch {
    // The conflict is the point.
  }
  return dir;
}

describe('an iteration that needs a checkpoint does not start without one (and odd states that can be checkpointed run)', () => {
  it('unresolved merge conflict: the checkpoint keeps the conflict, so the loop runs and a rollback brings it back exactly', async () => {
    const dir = conflictedProject();
    const conflicted = readFileSync(join(dir, 'app.js'));
    const unmerged = git(dir, 'ls-files', '-u');
    expect(unmerged).not.toBe('');
    writeMockScript(dir, [{ output: working(), files: { 'new.txt': 'agent work', 'app.js': 'agent version\n' } }]);
    const r = await ralph(mock('--verify', 'false', '--rollback-on-fail', '--verify-max', '1', '--on-verify-exhausted', 'abort'), dir, cleanEnv());
    expect(r.stderr).not.toContain('checkpoint_failed');
    expect(events(dir, 'agent.result')).toHaveLength(1);
    expect(events(dir, 'checkpoint.restored')).toHaveLength(1);
    expect(readFileSync(join(dir, 'app.js')).equals(conflicted)).toBe(true);
    expect(existsSync(join(dir, 'new.txt'))).toBe(false);
    expect(git(dir, 'ls-files', '-u')).toBe(unmerged);
    expect(existsSync(join(dir, '.git', 'MERGE_HEAD'))).toBe(true);
  });

  it('a stale index.lock + --rollback-on-fail: stops instead of running with every rollback refused', async () => {
    const dir = ralphProject();
    writeFileSync(join(dir, '.git', 'index.lock'), '');
    writeMockScript(dir, [{ output: working(), files: { 'new.txt': 'agent work' } }]);
    const r = await ralph(mock('--verify', 'false', '--rollback-on-fail'), dir, cleanEnv());
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('index.lock');
    expect(r.stderr).toContain('--no-checkpoint');
    expect(existsSync(join(dir, 'new.txt'))).toBe(false);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'checkpoint_failed' });
  });

  it("a repository's own filter, even a failing required one, is never run by Ralph: it checkpoints the files as they are", async () => {
    const dir = ralphProject({ files: { '.gitattributes': '*.dat filter=broken\n', 'data.dat': 'one\n' } });
    // Committed before the filter existed; from now on git would run it to read data.dat, and it fails.
    // A filter of the repository's own configuration is something the agent may have written.
    git(dir, 'config', 'filter.broken.clean', 'false');
    git(dir, 'config', 'filter.broken.smudge', 'cat');
    git(dir, 'config', 'filter.broken.required', 'true');
    writeFileSync(join(dir, 'data.dat'), 'two\n');
    writeMockScript(dir, [{ output: working(), files: { 'new.txt': 'agent work' } }]);
    const r = await ralph(mock('--verify', 'true', '--max-loops', '1'), dir, cleanEnv());
    expect(r.stderr).not.toContain("filter 'broken' failed");
    expect(r.stderr).not.toContain('bug in Ralph');
    expect(r.exitCode).toBe(7);
    expect(events(dir, 'checkpoint.created')).toHaveLength(1);
    expect(readFileSync(join(dir, 'new.txt'), 'utf8')).toBe('agent work');
    expect(readFileSync(join(dir, 'data.dat'), 'utf8')).toBe('two\n');
  });

  it('--no-checkpoint accepts the risk: the same conflicted project runs', async () => {
    const dir = conflictedProject();
    writeMockScript(dir, [{ output: done(), files: { 'new.txt': 'agent work' } }]);
    const r = await ralph(mock('--verify', 'true', '--no-checkpoint', '--max-loops', '1'), dir, cleanEnv());
    expect(r.stderr).not.toContain('checkpoint_failed');
    expect(readFileSync(join(dir, 'new.txt'), 'utf8')).toBe('agent work');
  });
});

describe('--checkpoint and --rollback-on-fail without a verify command', () => {
  it('--checkpoint alone makes a checkpoint before each iteration', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: working(), files: { 'a.txt': '1' } }]);
    const r = await ralph(mock('--checkpoint', '--max-loops', '1'), dir, cleanEnv());
    expect(r.exitCode).toBe(7);
    expect(events(dir, 'checkpoint.created')).toHaveLength(1);
    expect(checkpointRefsAndStash(dir)).not.toBe('');
  });

  it('a failed agent call that changed files is rolled back with --rollback-on-fail; the attempt is kept', async () => {
    const dir = ralphProject({ files: { 'app.js': 'good\n' } });
    writeMockScript(dir, [{ output: 'Segmentation fault', raw: true, exit_code: 139, files: { 'app.js': 'half-written', 'junk.txt': 'x' } }]);
    const r = await ralph(mock('--checkpoint', '--rollback-on-fail', '--max-loops', '1'), dir, cleanEnv());
    expect(r.exitCode).toBe(7);
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('good\n');
    expect(existsSync(join(dir, 'junk.txt'))).toBe(false);
    expect(r.stderr).toMatch(/agent call failed/i);
    expect(r.stderr).toContain('Rolled back');
    const restored = events(dir, 'checkpoint.restored');
    expect(restored).toHaveLength(1);
    const ref = String(restored[0]?.['attempt_ref']);
    expect(git(dir, 'show', `${ref}:app.js`)).toBe('half-written');
  });

  it('with a verify gate too, a failed call that changed files is rolled back instead of becoming the baseline', async () => {
    const dir = ralphProject({ files: { 'app.js': 'good\n' } });
    writeMockScript(dir, [
      { output: '{"type":"result","is_error":true,"result":"API Error: connection reset"}', raw: true, exit_code: 1, files: { 'app.js': 'broken' } },
      { output: done(), files: { 'b.txt': 'fine' } },
    ]);
    const r = await ralph(mock('--verify', 'grep -q good app.js', '--rollback-on-fail', '--max-loops', '2'), dir, cleanEnv());
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('good\n');
    expect(events(dir, 'checkpoint.restored')).toHaveLength(1);
    expect(r.exitCode).toBe(0);
  });

  it('without --rollback-on-fail the failed attempt stays and the user hears how to restore it', async () => {
    const dir = ralphProject({ files: { 'app.js': 'good\n' } });
    writeMockScript(dir, [{ output: 'crash', raw: true, exit_code: 139, files: { 'app.js': 'half-written' } }]);
    const r = await ralph(mock('--checkpoint', '--max-loops', '1'), dir, cleanEnv());
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('half-written');
    expect(r.stderr).toContain('ralph --restore');
  });
});

describe('the fixtures', () => {
  it('the conflicted project really has an unresolved conflict', () => {
    const dir = conflictedProject();
    expect(git(dir, 'diff', '--name-only', '--diff-filter=U')).toContain('app.js');
  });
});

describe('after a rollback the agent is told', () => {
  it("the next call's context says which checkpoint, which files, and that its commits left the branch", async () => {
    const dir = ralphProject({ files: { 'app.js': 'good\n' } });
    const fake = fakeClaude([], {
      default: { stdout: resultJson(working()), shell: 'echo broken > app.js && git add app.js && git commit -qm "agent commit"' },
    });
    const r = await ralph(['--verify', 'grep -q good app.js', '--verify-max', '2', '--rollback-on-fail', '--pause', '0', '--max-loops', '2'], dir, fake.env);
    expect(r.exitCode).toBe(6);
    const calls = fake.calls();
    expect(calls).toHaveLength(2);
    const first = contextOf(calls[0]);
    const second = contextOf(calls[1]);
    expect(first).not.toContain('rolled back');
    expect(second).toContain('## Your previous attempt was rolled back');
    expect(second).toMatch(/restored checkpoint \S+ \(the state before that loop\)/);
    expect(second).toContain('1 file was reverted: app.js');
    expect(second).toContain('gone from the branch');
    expect(second).toMatch(/refs\/ralph\/attempts\/\S+/);
  });
});
