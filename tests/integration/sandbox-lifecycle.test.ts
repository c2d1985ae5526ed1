// How a sandboxed run starts and ends: a machine without bubblewrap is told what to install,
// Ctrl+C ends the whole contained tree, and what a killed run left in the project is cleaned
// up by the next start.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXCLUDE_BEGIN } from '../../src/core/sandbox-placeholders.js';
import { git } from '../helpers/git-repo.js';
import { killTracked, survivors, track } from '../helpers/processes.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { FAKE_BIN, fakeClaude, ralph, runCli } from '../helpers/run-cli.js';
import { bwrapUnavailable, processesWithEnv, sandboxWorld } from '../helpers/sandbox-world.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';
import { skipNote } from '../helpers/skip-note.js';

const unavailable = skipNote('the sandbox tests', bwrapUnavailable());
const TAG = 'RALPH_SANDBOX_TEST_TAG';

afterEach(() => killTracked());

/** A PATH with node, git and the fake claude, and no bubblewrap. */
function pathWithoutBwrap(): string {
  const bin = join(tempDir('ralph-nobwrap-'), 'bin');
  mkdirSync(bin);
  for (const tool of ['node', 'git', 'sh']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
  return `${FAKE_BIN}:${bin}`;
}

describe('ralph --sandbox without bubblewrap', () => {
  it('stops before the first call and says what to install', async () => {
    const world = sandboxWorld();
    const dir = ralphProject();
    const fake = fakeClaude([{ fixture: 'json-success-tool-use.json', shell: 'echo ran > ran.txt' }]);
    const env = world.env({ PATH: pathWithoutBwrap(), FAKE_CLAUDE_SCENARIO: fake.env['FAKE_CLAUDE_SCENARIO'] as string, FAKE_CLAUDE_STATE: fake.stateDir });
    const r = await ralph(['--sandbox', '--max-loops', '1', '--pause', '0'], dir, env);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Error: --sandbox cannot start on this machine:');
    expect(r.stderr).toMatch(/bubblewrap|bwrap/);
    expect(r.stderr).toContain('sudo apt-get install bubblewrap socat ripgrep');
    expect(r.stderr).toContain('kernel.apparmor_restrict_unprivileged_userns=0');
    expect(r.stderr).toContain('Docker');
    expect(fake.calls()).toEqual([]);
    expect(existsSync(join(dir, 'ran.txt'))).toBe(false);
  });
});

describe.skipIf(unavailable !== undefined)(`ralph --sandbox where bubblewrap cannot run${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('finds out with a contained true before the first call, and says why', async () => {
    const world = sandboxWorld();
    const dir = ralphProject();
    // A bubblewrap that is installed but, like one without user namespaces, cannot start anything.
    const bin = join(tempDir('ralph-bwrap-denied-'), 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'bwrap'),
      '#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; exit 0; fi\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const fake = fakeClaude([{ fixture: 'json-success-tool-use.json' }]);
    const env = world.env({
      PATH: `${FAKE_BIN}:${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
      FAKE_CLAUDE_SCENARIO: fake.env['FAKE_CLAUDE_SCENARIO'] as string,
      FAKE_CLAUDE_STATE: fake.stateDir,
    });
    const r = await ralph(['--sandbox', '--max-loops', '1', '--pause', '0'], dir, env);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      'Error: --sandbox cannot start on this machine: a contained test command failed: the sandbox did not run it (the wrapper ended with exit code 1)',
    );
    expect(r.stderr).toContain('setting up uid map: Permission denied');
    expect(r.stderr).toContain('kernel.apparmor_restrict_unprivileged_userns=0');
    expect(fake.calls()).toEqual([]);
    expect(readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8')).not.toContain(EXCLUDE_BEGIN);
  });
});

describe.skipIf(unavailable !== undefined)(`ralph --sandbox start and end${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('Ctrl+C ends the sandboxed agent and everything it started', async () => {
    const world = sandboxWorld();
    const dir = ralphProject();
    const tag = `ctrl-c-${process.pid}-${Date.now()}`;
    const fake = fakeClaude([{ fixture: 'json-success-tool-use.json', sleep_ms: 60_000, background: 'sleep 300' }]);
    const env = world.env({ [TAG]: tag, FAKE_CLAUDE_SCENARIO: fake.env['FAKE_CLAUDE_SCENARIO'] as string, FAKE_CLAUDE_STATE: fake.stateDir });
    const run = runCli('ralph', ['--sandbox', '--sandbox-allow-write', fake.stateDir, '--max-loops', '1', '--pause', '0'], dir, env, 60_000);
    if (run.pid !== undefined) track(run.pid);
    // The agent and its background sleep run: two processes inside the sandbox carry the tag besides ralph's own.
    await waitFor(() => fake.calls().length === 1 && processesWithEnv(TAG, tag).filter((pid) => pid !== run.pid).length >= 3, 'the sandboxed agent');
    const inside = processesWithEnv(TAG, tag).filter((pid) => pid !== run.pid);
    for (const pid of inside) track(pid);
    run.kill('SIGINT');
    const r = await run;
    expect(r.exitCode).toBe(130);
    expect(await survivors(inside)).toEqual([]);
    expect(processesWithEnv(TAG, tag)).toEqual([]);
    expect(existsSync(join(dir, '.bashrc'))).toBe(false);
  });

  it('kill -9 leaves placeholders that git never sees; the next start removes them', async () => {
    const world = sandboxWorld();
    const dir = ralphProject({ files: { '.profile': 'export KEEP=1\n' } });
    const fake = fakeClaude([{ fixture: 'json-success-tool-use.json', sleep_ms: 60_000 }], { default: { fixture: 'json-success-tool-use.json' } });
    const tag = `kill-9-${process.pid}-${Date.now()}`;
    const env = world.env({ [TAG]: tag, FAKE_CLAUDE_SCENARIO: fake.env['FAKE_CLAUDE_SCENARIO'] as string, FAKE_CLAUDE_STATE: fake.stateDir });
    const run = runCli('ralph', ['--sandbox', '--sandbox-allow-write', fake.stateDir, '--max-loops', '1', '--pause', '0'], dir, env, 60_000);
    if (run.pid !== undefined) track(run.pid);
    await waitFor(() => fake.calls().length === 1 && existsSync(join(dir, '.bashrc')), 'the placeholders of the running sandbox');
    // Everything the run started carries the tag: the agent, and the sandbox's own proxy bridges.
    const started = processesWithEnv(TAG, tag).filter((pid) => pid !== run.pid);
    for (const pid of started) track(pid);
    run.kill('SIGKILL');
    await run.catch(() => undefined);
    // Ralph's watchdog ends them all, the proxy bridges included.
    expect(await survivors(started)).toEqual([]);

    // Left behind: empty stand-ins, hidden from git by the exclude block, which stays too.
    expect(readFileSync(join(dir, '.bashrc'), 'utf8')).toBe('');
    expect(readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8')).toContain(EXCLUDE_BEGIN);
    expect(git(dir, 'status', '--porcelain')).toBe('');

    // The next start (without --sandbox) removes them; the project's own .profile stays.
    const r = await ralph(['--max-loops', '1', '--pause', '0'], dir, env);
    expect(r.stderr).toContain('Removed the empty placeholders an interrupted sandboxed run left behind');
    expect(r.exitCode).toBe(7);
    for (const name of ['.bashrc', '.gitconfig', '.mcp.json', '.vscode', '.idea', '.claude']) expect(existsSync(join(dir, name)), name).toBe(false);
    expect(readFileSync(join(dir, '.profile'), 'utf8')).toBe('export KEEP=1\n');
    expect(readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8')).not.toContain(EXCLUDE_BEGIN);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });
});
