// `ralph --restore ID` says when it would move a branch over newer commits, and needs --force without a terminal.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../helpers/git-repo.js';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, statusBlock } from '../helpers/run-cli.js';

const working = `Working.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`;

/** A project with one checkpoint (before loop 1) and a commit the agent made after it. */
async function projectWithNewerCommit(): Promise<{ dir: string; id: string; before: string; after: string }> {
  const dir = ralphProject({ files: { 'app.js': 'v1\n' } });
  const before = git(dir, 'rev-parse', 'HEAD').trim();
  writeMockScript(dir, [{ output: working, files: { 'app.js': 'v2\n' }, commit: 'agent: rewrite app.js' }]);
  const run = await ralph(['--backend', 'mock', '--pause', '0', '--checkpoint', '--max-loops', '1'], dir, cleanEnv());
  expect(run.exitCode).toBe(7);
  const listing = await ralph(['--checkpoints', '--json'], dir, cleanEnv());
  const id = (JSON.parse(listing.stdout) as { checkpoints: Array<{ id: string }> }).checkpoints[0]?.id ?? '';
  expect(id).not.toBe('');
  const after = git(dir, 'rev-parse', 'HEAD').trim();
  expect(after).not.toBe(before);
  return { dir, id, before, after };
}

describe('ralph --restore over newer commits', () => {
  it('without a terminal and without --force: says which branch and commits, changes nothing, exit 2 naming --force', async () => {
    const { dir, id, after } = await projectWithNewerCommit();
    const r = await ralph(['--restore', id], dir, cleanEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("moves branch 'main' back to");
    expect(r.stderr).toContain('agent: rewrite app.js');
    expect(r.stderr).toContain(`git branch main-before-restore ${after.slice(0, 12)}`);
    expect(r.stderr).toContain(`ralph --restore ${id} --force`);
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(after);
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('v2\n');
  });

  it('naming the checkpoint by its commit instead of its id asks just the same', async () => {
    const { dir, id, after } = await projectWithNewerCommit();
    const sha = git(dir, 'rev-parse', `refs/ralph/checkpoints/${id}`).trim().slice(0, 10);
    const r = await ralph(['--restore', sha], dir, cleanEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--force');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(after);
  });

  it('with --force: restores, and the commits it left stay reachable', async () => {
    const { dir, id, before, after } = await projectWithNewerCommit();
    const r = await ralph(['--restore', id, '--force'], dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('agent: rewrite app.js');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(before);
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('v1\n');
    expect(git(dir, 'for-each-ref', '--contains', after, '--format=%(refname)')).toMatch(/^refs\/ralph\//m);
  });

  it('a restore that moves no branch needs no --force', async () => {
    const dir = ralphProject({ files: { 'app.js': 'v1\n' } });
    writeMockScript(dir, [{ output: working, files: { 'app.js': 'v2\n' } }]);
    await ralph(['--backend', 'mock', '--pause', '0', '--checkpoint', '--max-loops', '1'], dir, cleanEnv());
    const listing = await ralph(['--checkpoints', '--json'], dir, cleanEnv());
    const id = (JSON.parse(listing.stdout) as { checkpoints: Array<{ id: string }> }).checkpoints[0]?.id ?? '';
    const r = await ralph(['--restore', id], dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain('--force');
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('v1\n');
  });
});
