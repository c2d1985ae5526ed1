// A second Ctrl+C while a rollback writes the user's files waits for it: the tree is before or after, never in between.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git as gitIn } from '../helpers/git-repo.js';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { FAKE_BIN, cleanEnv, ralph, runCli, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';
import { pressCtrlC } from '../helpers/ctrl-c.js';

/**
 * A `git` in front of the real one: once the verify command has armed it (the
 * rollback comes right after the verify run), every git call marks that it ran
 * and takes a little longer, so signals land while the rollback is under way.
 */
function slowGitAfterArming(): { bin: string; arm: string; mark: string } {
  const root = tempDir('slow-git-');
  const bin = join(root, 'bin');
  mkdirSync(bin);
  const arm = join(root, 'armed');
  const mark = join(root, 'git-ran-after-arming');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nif [ -e '${arm}' ]; then touch '${mark}'; sleep 0.3; fi\nexec '${realGit}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return { bin, arm, mark };
}

describe('Ctrl+C during a rollback', () => {
  it('a second (and third) Ctrl+C waits for the rollback, then exits 130 with the tree fully restored', async () => {
    const dir = ralphProject({ files: { 'app.js': 'good\n', 'lib.js': 'lib v1\n' } });
    writeMockScript(dir, [
      {
        output: `Working.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`,
        files: { 'app.js': 'broken\n', 'lib.js': 'lib v2\n', 'new.js': 'junk\n' },
      },
    ]);
    const git = slowGitAfterArming();
    const env = cleanEnv({ PATH: `${git.bin}:${FAKE_BIN}:${process.env['PATH'] ?? '/usr/bin:/bin'}` });
    const run = runCli(
      'ralph',
      ['--backend', 'mock', '--pause', '0', '--verify', `touch '${git.arm}'; exit 1`, '--rollback-on-fail', '--max-loops', '1'],
      dir,
      env,
      110_000,
    );
    await waitFor(() => existsSync(git.mark));
    await pressCtrlC(run, 3);
    const r = await run;
    const tree = { app: readFileSync(join(dir, 'app.js'), 'utf8'), lib: readFileSync(join(dir, 'lib.js'), 'utf8'), newFile: existsSync(join(dir, 'new.js')) };
    expect(tree).toEqual({ app: 'good\n', lib: 'lib v1\n', newFile: false });
    expect(r.exitCode).toBe(130);
    expect(String(r.stderr)).toContain('Finishing the rollback in progress');
  });
});

describe('Ctrl+C during ralph --restore', () => {
  it('finishes the restore, then ends: the tree is the checkpoint, not something in between', async () => {
    const dir = ralphProject({ files: { 'app.js': 'v1\n', 'lib.js': 'lib v1\n' } });
    writeMockScript(dir, [
      {
        output: `Working.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`,
        files: { 'app.js': 'v2\n', 'lib.js': 'lib v2\n', 'new.js': 'added\n' },
      },
    ]);
    await ralph(['--backend', 'mock', '--pause', '0', '--checkpoint', '--max-loops', '1'], dir, cleanEnv());
    const listing = await ralph(['--checkpoints', '--json'], dir, cleanEnv());
    const id = (JSON.parse(listing.stdout) as { checkpoints: Array<{ id: string }> }).checkpoints[0]?.id ?? '';
    expect(id).not.toBe('');
    const git = slowGitAfterArming();
    writeFileSync(git.arm, '');
    const env = cleanEnv({ PATH: `${git.bin}:${FAKE_BIN}:${process.env['PATH'] ?? '/usr/bin:/bin'}` });
    // Checkpoints, wherever they are kept (stash entries or Ralph's own refs): the restore makes one of the present first.
    const checkpointCount = (): number =>
      `${gitIn(dir, 'stash', 'list')}${gitIn(dir, 'for-each-ref', 'refs/ralph/checkpoints')}`.split('\n').filter((l) => l.trim()).length;
    const before = checkpointCount();
    const run = runCli('ralph', ['--restore', id], dir, env);
    // The safety checkpoint exists: the restore's own writes come next.
    await waitFor(() => checkpointCount() > before);
    await pressCtrlC(run, 2);
    const r = await run;
    const tree = { app: readFileSync(join(dir, 'app.js'), 'utf8'), lib: readFileSync(join(dir, 'lib.js'), 'utf8'), newFile: existsSync(join(dir, 'new.js')) };
    expect(tree).toEqual({ app: 'v1\n', lib: 'lib v1\n', newFile: false });
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toContain('Finishing the restore in progress');
    expect(gitIn(dir, 'status', '--porcelain')).toBe('');
  });
});
