// The loop lock lives where the agent's file operations do not reach it, and a
// lost lock is reported as what it is. Needs `npm run build`.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from '../helpers/git-repo.js';
import { killTracked, pidFromFile, track } from '../helpers/processes.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph, readJson, resultJson, runCli, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ensureRuntimeDir, locateRuntimeDir } from '../../src/state/runtime-dir.js';
import { waitFor } from '../helpers/wait-for.js';

const inProgress = resultJson(`Worked.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`);

afterEach(() => killTracked());

describe('the project lock', () => {
  it("survives the agent's git clean -fdx: a second ralph is refused and --status still sees the loop", async () => {
    const dir = ralphProject();
    const fake = fakeClaude([], { default: { stdout: inProgress, shell: 'git clean -fdxq && echo $PPID > "$FAKE_CLAUDE_STATE/cleaned"', sleep_ms: 60_000 } });
    const first = runCli('ralph', ['--max-loops', '1', '--pause', '0'], dir, fake.env, 60_000);
    track(first.pid as number);
    await pidFromFile(join(fake.stateDir, 'cleaned'));
    expect(existsSync(join(dir, '.ralph', 'status.json'))).toBe(false);

    const second = await ralph(['--max-loops', '1', '--pause', '0'], dir, fake.env, 30_000);
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toContain(`Another Ralph loop is already running in this project (process ${first.pid}`);
    expect(existsSync(join(dir, '.git', 'ralph', 'loop.lock'))).toBe(true);
    expect(fake.calls()).toHaveLength(1);
    const status = await ralph(['--status', '--json'], dir, fake.env);
    expect(JSON.parse(status.stdout)).toMatchObject({ running: true, pid: first.pid });
    expect((await ralph(['--status'], dir, fake.env)).stdout).toContain(`A Ralph loop is running (PID ${first.pid})`);

    first.kill('SIGINT');
    expect((await first).exitCode).toBe(130);
    expect(existsSync(join(dir, '.git', 'ralph', 'loop.lock'))).toBe(false);
  });

  it('a lost lock stops the loop with a message that says so, not as an interrupt', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([], { default: { stdout: inProgress, sleep_ms: 60_000 } });
    const run = runCli('ralph', ['--max-loops', '1', '--pause', '0'], dir, fake.env, 60_000);
    track(run.pid as number);
    await waitFor(() => fake.calls().length === 1);
    rmSync(join(dir, '.git', 'ralph', 'loop.lock'), { recursive: true, force: true });
    const r = await run;
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toContain('was lost');
    expect(String(r.stderr)).toContain('the project lock was removed or taken over by another process');
    expect(String(r.stderr)).not.toContain('Interrupted');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'lock_lost', exit_code: 1 });
  });
});

describe('where the run-time directory is', () => {
  it('a git project keeps it in the git dir; a project in a subdirectory gets its own', () => {
    const dir = ralphProject();
    expect(locateRuntimeDir(dir)).toBe(join(dir, '.git', 'ralph'));
    mkdirSync(join(dir, 'sub'));
    const digest = createHash('sha256').update('sub').digest('hex').slice(0, 16);
    expect(locateRuntimeDir(join(dir, 'sub'))).toBe(join(dir, '.git', 'ralph', `project-${digest}`));
  });

  it('a linked worktree keeps it in its own git dir', () => {
    const dir = ralphProject();
    const wt = join(tempDir('ralph-wt-'), 'wt');
    git(dir, 'worktree', 'add', '-q', wt);
    expect(locateRuntimeDir(wt)).toBe(join(dir, '.git', 'worktrees', 'wt', 'ralph'));
  });

  it('a project without git uses a private per-user directory keyed by its real path', () => {
    const dir = ralphProject({ git: false });
    const runtime = tempDir('ralph-xdg-');
    const env = { XDG_RUNTIME_DIR: runtime };
    const made = ensureRuntimeDir(dir, env);
    // The name stays the digest earlier versions used, so a status read finds the lock of a loop they started.
    const digest = createHash('sha256').update(realpathSync(dir)).digest('hex').slice(0, 16);
    expect(made).toBe(join(runtime, 'ralph', digest));
    expect(statSync(made).mode & 0o777).toBe(0o700);
    expect(statSync(join(runtime, 'ralph')).mode & 0o777).toBe(0o700);
    const link = join(tempDir('ralph-link-'), 'same');
    symlinkSync(dir, link);
    expect(locateRuntimeDir(link, env)).toBe(made);
  });

  it('refuses a per-user root that is a symlink or open to others', () => {
    const dir = ralphProject({ git: false });
    const runtime = tempDir('ralph-xdg-');
    symlinkSync(tempDir('ralph-elsewhere-'), join(runtime, 'ralph'));
    expect(() => ensureRuntimeDir(dir, { XDG_RUNTIME_DIR: runtime })).toThrow(/symbolic link/);
    expect(lstatSync(join(runtime, 'ralph')).isSymbolicLink()).toBe(true);
    const open = tempDir('ralph-xdg-');
    mkdirSync(join(open, 'ralph'));
    chmodSync(join(open, 'ralph'), 0o755);
    expect(() => ensureRuntimeDir(dir, { XDG_RUNTIME_DIR: open })).toThrow(/is open to other users/);
  });
});
