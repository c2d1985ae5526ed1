// Ralph's own git calls (checkpoint, progress status, rollback) in a repository whose
// configuration names commands: a filter an in-tree .gitattributes sends every file through,
// diff and merge drivers, an fsmonitor program, hooks, a pager, an external diff. None may run.
// And a repository the agent pointed elsewhere (a planted .git/commondir) is refused.
import { chmodSync, existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCheckpoint, rollbackToCheckpoint } from '../../../src/checkpoints/git-checkpoints.js';
import { GitWorkspace } from '../../../src/infra/git-workspace.js';
import { start } from '../../../src/infra/process.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { createProgressProbe } from '../../../src/infra/progress-probe.js';
import { git, gitRepo, writeFiles } from '../../helpers/git-repo.js';
import { gitCommandsDuring } from '../../helpers/git-trace.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A command that leaves `name` in `marks` (and passes its input through, as a filter must). */
function marking(marks: string, name: string): string {
  return `touch '${marks}/${name}'; cat`;
}

/** Every setting of `config` that names a command, each leaving a mark when it runs. */
function plantCommands(repo: string, marks: string, file = join(repo, '.git', 'config')): void {
  const set = (key: string, value: string): string => git(repo, 'config', '--file', file, key, value);
  set('filter.evil.clean', marking(marks, 'clean'));
  set('filter.evil.smudge', marking(marks, 'smudge'));
  set('filter.evil.process', marking(marks, 'process'));
  set('filter.evil.required', 'true');
  set('diff.evil.textconv', marking(marks, 'textconv'));
  set('diff.evil.command', marking(marks, 'diff-command'));
  set('merge.evil.driver', marking(marks, 'merge-driver'));
  set('diff.external', marking(marks, 'external-diff'));
  set('core.pager', marking(marks, 'pager'));
  // The planted programs live in a folder of the test's own, beside the marks.
  const planted = tempDir('ralph-planted-');
  const monitor = join(planted, 'fsmonitor.sh');
  writeFileSync(monitor, `#!/bin/sh\ntouch '${marks}/fsmonitor'\n`);
  chmodSync(monitor, 0o755);
  set('core.fsmonitor', monitor);
  const hooks = join(planted, 'hooks');
  for (const hook of ['pre-commit', 'post-checkout', 'reference-transaction', 'post-index-change']) {
    writeFiles(hooks, { [hook]: `#!/bin/sh\ntouch '${marks}/hook-${hook}'\n` });
    chmodSync(join(hooks, hook), 0o755);
  }
  set('core.hooksPath', hooks);
}

/** A tracked file changed without changing its size: git must read its content to see it. */
function touchSameSize(path: string, text: string): void {
  writeFileSync(path, text);
  const later = new Date(Date.now() + 5_000);
  utimesSync(path, later, later);
}

describe("Ralph's git calls run no command of the repository's configuration", () => {
  it('checkpoint, progress status and rollback with a filter on every file, drivers, an fsmonitor and hooks', async () => {
    const dir = gitRepo({ 'a.txt': 'one\n', '.gitattributes': '* filter=evil diff=evil merge=evil\n' });
    const marks = tempDir('ralph-marks-');
    plantCommands(dir, marks);
    const runner = createProcessRunner();
    const ws = new GitWorkspace(dir, runner);
    const probe = await createProgressProbe(dir, runner);
    await probe.begin();
    const made = await createCheckpoint(ws, { loop: 1, now: 1_767_000_000_000 });
    expect(made.ok).toBe(true);
    if (!made.ok) return;
    touchSameSize(join(dir, 'a.txt'), 'two\n');
    writeFileSync(join(dir, 'b.txt'), 'new\n');
    const measured = await probe.measure();
    expect(measured.changedFiles).toEqual(expect.arrayContaining(['a.txt', 'b.txt']));
    const again = await createCheckpoint(ws, { loop: 2, now: 1_767_000_001_000 });
    expect(again.ok).toBe(true);
    const back = await rollbackToCheckpoint(ws, made.checkpoint, { attemptLabel: 'loop 1', now: 1_767_000_002_000 });
    expect(back.ok).toBe(true);
    // Checked before this test's own git calls, which do run them.
    expect(readdirSync(marks)).toEqual([]);
    expect(existsSync(join(dir, 'b.txt'))).toBe(false);
  });

  it('refuses a repository whose .git/commondir appeared while the agent ran, before any git call reads it', async () => {
    const dir = gitRepo({ 'a.txt': 'one\n' });
    const marks = tempDir('ralph-marks-');
    const runner = createProcessRunner();
    const ws = new GitWorkspace(dir, runner);
    const probe = await createProgressProbe(dir, runner);
    await probe.begin();
    const made = await createCheckpoint(ws, { loop: 1, now: 1_767_000_000_000 });
    expect(made.ok).toBe(true);
    // The agent: a git dir of its own inside the project, with a filter in its configuration,
    // reached through .git/commondir; every file sent through that filter.
    const evil = join(dir, 'build', 'gitdir');
    const agent = await start(
      'sh',
      [
        '-c',
        `mkdir -p build && cp -r .git "$1" && printf '%s\\n' "$1" > .git/commondir && printf '* filter=evil\\n' > .gitattributes && printf 'two\\n' > a.txt`,
        'sh',
        evil,
      ],
      { cwd: dir, env: process.env },
    );
    expect(agent.exitCode).toBe(0);
    plantCommands(dir, marks, join(evil, 'config'));
    const refusal = probe.measure();
    await expect(refusal).rejects.toThrow(/changed while the agent ran \(its \.git\/commondir/);
    await expect(refusal).rejects.toMatchObject({ exitCode: 1 });
    const checkpoint = await createCheckpoint(ws, { loop: 2, now: 1_767_000_001_000 });
    expect(checkpoint.ok).toBe(false);
    expect(readdirSync(marks)).toEqual([]);
  });

  it('a repository the agent nested in the project and added as a submodule: its filters do not run either', async () => {
    const dir = gitRepo({ 'a.txt': 'one\n' });
    const marks = tempDir('ralph-marks-');
    const runner = createProcessRunner();
    const probe = await createProgressProbe(dir, runner);
    await probe.begin();
    const nested = join(dir, 'nested');
    const agent = await start(
      'sh',
      [
        '-c',
        [
          'git init -q nested && cd nested',
          "printf '* filter=evil\\n' > .gitattributes && printf 'one\\n' > n.txt",
          'git add -A && git -c user.name=a -c user.email=a@b commit -qm n && cd ..',
          'git add nested',
        ].join(' && '),
      ],
      { cwd: dir, env: process.env },
    );
    expect(agent.exitCode).toBe(0);
    plantCommands(nested, marks);
    touchSameSize(join(nested, 'n.txt'), 'two\n');
    await probe.measure();
    expect(readdirSync(marks)).toEqual([]);
  });
});

/** The agent's turn: a command Ralph starts (so its next git call checks the repository again). */
async function agentRuns(dir: string, script: string): Promise<void> {
  const agent = await start('sh', ['-c', script], { cwd: dir, env: process.env });
  expect(agent.exitCode).toBe(0);
}

describe('the drivers of a repository are read again whenever what git reads them from changed', () => {
  it('asks git only for the status when the agent changed no configuration, index or submodule', async () => {
    const dir = gitRepo({ 'a.txt': 'one\n' });
    const probe = await createProgressProbe(dir, createProcessRunner());
    await probe.begin();
    await agentRuns(dir, "printf 'two\\n' > a.txt");
    expect(await gitCommandsDuring(() => probe.measure())).toEqual(['status']);
    // Staged by the agent: the index changed, so git lists it again.
    await agentRuns(dir, 'git add a.txt');
    expect((await gitCommandsDuring(() => probe.measure())).sort()).toEqual(['config', 'ls-files', 'status']);
  });

  it('a filter the agent added to .git/config after the first reading does not run', async () => {
    const dir = gitRepo({ 'a.txt': 'one\n' });
    const marks = tempDir('ralph-marks-');
    const probe = await createProgressProbe(dir, createProcessRunner());
    await probe.begin();
    await agentRuns(dir, "printf '* filter=evil diff=evil\\n' > .gitattributes");
    plantCommands(dir, marks);
    touchSameSize(join(dir, 'a.txt'), 'two\n');
    expect((await probe.measure()).changedFiles).toContain('a.txt');
    expect(readdirSync(marks)).toEqual([]);
  });

  it('a filter in a file the configuration includes, changed by the agent, does not run', async () => {
    const dir = gitRepo({ 'a.txt': 'one\n', '.gitattributes': '* filter=evil\n' });
    const marks = tempDir('ralph-marks-');
    const included = join(dir, 'included.cfg');
    writeFileSync(included, '');
    git(dir, 'config', 'include.path', included);
    const probe = await createProgressProbe(dir, createProcessRunner());
    await probe.begin();
    await agentRuns(dir, 'true');
    plantCommands(dir, marks, included);
    touchSameSize(join(dir, 'a.txt'), 'two\n');
    await probe.measure();
    expect(readdirSync(marks)).toEqual([]);
  });

  it('a submodule the index recorded but that was not on disk, made by the agent: its filters do not run', async () => {
    const dir = gitRepo({ 'a.txt': 'one\n' });
    const marks = tempDir('ralph-marks-');
    git(dir, 'update-index', '--add', '--cacheinfo', `160000,${git(dir, 'rev-parse', 'HEAD').trim()},nested`);
    git(dir, 'commit', '-qm', 'a gitlink');
    const probe = await createProgressProbe(dir, createProcessRunner());
    await probe.begin();
    const nested = join(dir, 'nested');
    await agentRuns(
      dir,
      [
        'git init -q nested && cd nested',
        "printf '* filter=evil\\n' > .gitattributes && printf 'one\\n' > n.txt",
        'git add -A && git -c user.name=a -c user.email=a@b commit -qm n',
      ].join(' && '),
    );
    plantCommands(nested, marks);
    touchSameSize(join(nested, 'n.txt'), 'two\n');
    await probe.measure();
    expect(readdirSync(marks)).toEqual([]);
  });
});
