import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { checkTmux, launchTmuxMonitor, LIVE_LOG_HEADER, shellCommand, WINDOW_TITLE } from '../../src/features/observe/tmux-monitor.js';
import { RalphError } from '../../src/errors.js';
import { createProcessRunner } from '../../src/infra/process-runner.js';
import { fakeRunner } from '../helpers/fake-runner.js';
import { ROOT } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;

/** A private tmux server (its own socket and config), killed when the test ends. */
function privateServer(config: string) {
  const socket = `ralph-test-${randomBytes(4).toString('hex')}`;
  const configFile = join(tempDir('ralph-tmux-conf-'), 'tmux.conf');
  writeFileSync(configFile, config);
  onTestFinished(() => {
    spawnSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
  });
  const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  return { socket, configFile, tmux };
}

/** A stand-in loop that runs until the test creates `stop` in the project, then exits 6. */
const LOOP = ['sh', '-c', 'echo LOOP-RUNNING; while [ ! -f stop ]; do sleep 0.05; done; echo LOOP-LAST-WORDS; exit 6'];
/** The built pane runner (npm test builds first). */
const PANE_RUNNER = [process.execPath, join(ROOT, 'dist', 'cli', 'monitor-loop-pane.js')];
const MONITOR = ['sh', '-c', 'echo STATUS-PANE; exec sleep 600'];

async function launch(config: string, extra: { isTTY?: boolean; attach?: (args: string[]) => number; sessionName?: string } = {}) {
  const server = privateServer(config);
  const projectDir = tempDir('ralph tmux project ');
  const messages: string[] = [];
  const result = await launchTmuxMonitor(
    {
      projectDir,
      loopCommand: LOOP,
      monitorCommand: MONITOR,
      paneRunner: PANE_RUNNER,
      sessionName: extra.sessionName ?? 'ralph-it',
      socketName: server.socket,
      configFile: server.configFile,
    },
    {
      runner: createProcessRunner(),
      now: () => 1_767_000_000_000,
      isTTY: extra.isTTY ?? false,
      env: {},
      write: (t) => messages.push(t),
      ...(extra.attach ? { attach: extra.attach } : {}),
    },
  );
  return { ...server, projectDir, messages, result };
}

async function expectLayout(t: Awaited<ReturnType<typeof launch>>, windowIndex: number, paneBase: number): Promise<void> {
  const name = t.result.sessionName;
  const panes = t
    .tmux('list-panes', '-t', name, '-F', '#{window_index}|#{pane_index}|#{pane_title}|#{pane_left}|#{pane_top}')
    .stdout.trim()
    .split('\n')
    .map((l) => l.split('|'));
  expect(panes.map((p) => [Number(p[0]), Number(p[1]), p[2]])).toEqual([
    [windowIndex, paneBase, 'Ralph Loop'],
    [windowIndex, paneBase + 1, 'Agent Output'],
    [windowIndex, paneBase + 2, 'Status'],
  ]);
  const [left, topRight, bottomRight] = panes.map((p) => ({ x: Number(p[3]), y: Number(p[4]) }));
  expect(left?.x).toBe(0);
  expect(topRight?.x).toBeGreaterThan(0);
  expect(bottomRight?.x).toBe(topRight?.x);
  expect(bottomRight?.y).toBeGreaterThan(topRight?.y ?? 0);
  expect(t.tmux('display-message', '-p', '-t', name, '#{window_name}').stdout.trim()).toBe(WINDOW_TITLE);
  expect(t.tmux('display-message', '-p', '-t', name, '#{pane_index}').stdout.trim()).toBe(String(paneBase));

  const capture = (i: number) => t.tmux('capture-pane', '-p', '-J', '-t', `${name}:${windowIndex}.${paneBase + i}`).stdout;
  await waitFor(() => capture(0).includes('LOOP-RUNNING'), 'the loop pane');
  await waitFor(() => capture(1).includes(LIVE_LOG_HEADER.trim()), 'the live.log header in the output pane');
  await waitFor(() => capture(2).includes('STATUS-PANE'), 'the monitor pane');
  appendFileSync(join(t.projectDir, '.ralph', 'live.log'), 'CLAUDE SAYS HELLO\n');
  await waitFor(() => capture(1).includes('CLAUDE SAYS HELLO'), 'tail to follow live.log');

  writeFileSync(join(t.projectDir, 'stop'), '');
  // Nobody is attached: nobody could press Enter, so the session closes with the loop.
  await waitFor(() => t.tmux('has-session', '-t', name).status !== 0, 'the session to end with the loop');
  expect(readFileSync(join(t.projectDir, '.ralph', '.monitor_exit_code'), 'utf8')).toBe('6\n');
}

describe.skipIf(!hasTmux)('ralph --monitor with real tmux', () => {
  it('builds the 3-pane layout with default indexes and dies with the loop', async () => {
    const t = await launch('');
    expect(t.result).toEqual({ sessionName: 'ralph-it', attached: false, exitCode: 0 });
    expect(readFileSync(join(t.projectDir, '.ralph', 'live.log'), 'utf8').startsWith(LIVE_LOG_HEADER)).toBe(true);
    expect(t.messages.join('')).toContain(`tmux -L ${t.socket} attach -t ralph-it`);
    await expectLayout(t, 0, 0);
  });

  it('honours base-index 1 and pane-base-index 1 from the config', async () => {
    const t = await launch('set -g base-index 1\nset -g pane-base-index 1\n');
    await expectLayout(t, 1, 1);
  });

  it('takes a fresh name when the session exists, and attaches on a terminal', async () => {
    const attached: string[][] = [];
    const server = privateServer('');
    // Occupy the default name first, on the same private server.
    expect(server.tmux('-f', server.configFile, 'new-session', '-d', '-s', 'ralph-1767000000').status).toBe(0);
    const projectDir = tempDir('ralph-tmux-');
    const result = await launchTmuxMonitor(
      { projectDir, loopCommand: LOOP, monitorCommand: MONITOR, paneRunner: PANE_RUNNER, socketName: server.socket, configFile: server.configFile },
      {
        runner: createProcessRunner(),
        now: () => 1_767_000_000_000,
        isTTY: true,
        env: { TMUX: '/tmp/other,1,0' },
        write: () => undefined,
        attach: (args) => (attached.push(args), 0),
      },
    );
    expect(result).toMatchObject({ sessionName: 'ralph-1767000000-2', attached: true });
    // A private socket is never the client we sit in: attach, do not switch-client.
    expect(attached).toEqual([['-L', server.socket, '-f', server.configFile, 'attach-session', '-t', 'ralph-1767000000-2']]);
    expect(server.tmux('has-session', '-t', 'ralph-1767000000-2').status).toBe(0);
    writeFileSync(join(projectDir, 'stop'), '');
  });

  it('follows live.log across the replacement the loop makes at every iteration', async () => {
    const t = await launch('');
    const liveLog = join(t.projectDir, '.ralph', 'live.log');
    const capture = () => t.tmux('capture-pane', '-p', '-J', '-t', 'ralph-it:0.1').stdout;
    await waitFor(() => capture().includes(LIVE_LOG_HEADER.trim()), 'the first live.log');
    // What the loop does at the start of a call: a new file renamed over the old one.
    writeFileSync(`${liveLog}.tmp`, '=== Loop #1 ===\n');
    renameSync(`${liveLog}.tmp`, liveLog);
    appendFileSync(liveLog, 'AGENT OUTPUT OF LOOP 1\n');
    await waitFor(() => capture().includes('AGENT OUTPUT OF LOOP 1'), 'the output of the replaced live.log');
    writeFileSync(`${liveLog}.tmp`, '=== Loop #2 ===\n');
    renameSync(`${liveLog}.tmp`, liveLog);
    appendFileSync(liveLog, 'AGENT OUTPUT OF LOOP 2\n');
    await waitFor(() => capture().includes('AGENT OUTPUT OF LOOP 2'), 'the output of the second loop');
    writeFileSync(join(t.projectDir, 'stop'), '');
  });

  it('keeps the final screen for an attached watcher until Enter, then exits with the loop code', async () => {
    const t = await launch('');
    // A real tmux client (control mode) stands in for the person watching.
    const client = spawn('tmux', ['-L', t.socket, '-C', 'attach-session', '-t', 'ralph-it'], { stdio: ['pipe', 'ignore', 'ignore'] });
    onTestFinished(() => void client.kill());
    await waitFor(() => t.tmux('list-clients', '-t', 'ralph-it').stdout.trim() !== '', 'the client to attach');
    writeFileSync(join(t.projectDir, 'stop'), '');
    const capture = () => t.tmux('capture-pane', '-p', '-J', '-t', 'ralph-it:0.0').stdout;
    await waitFor(() => capture().includes('Press Enter'), 'the closing line');
    const screen = capture();
    expect(screen).toContain('LOOP-LAST-WORDS');
    expect(screen).toContain('Ralph loop finished with exit code 6 (verify gate aborted or exhausted, or review rejected).');
    expect(t.tmux('has-session', '-t', 'ralph-it').status).toBe(0);
    expect(t.tmux('send-keys', '-t', 'ralph-it:0.0', 'Enter').status).toBe(0);
    await waitFor(() => t.tmux('has-session', '-t', 'ralph-it').status !== 0, 'the session to close after Enter');
  });

  it('closes the whole session on Ctrl+C at the closing line, not just the loop pane', async () => {
    const t = await launch('');
    const client = spawn('tmux', ['-L', t.socket, '-C', 'attach-session', '-t', 'ralph-it'], { stdio: ['pipe', 'ignore', 'ignore'] });
    onTestFinished(() => void client.kill());
    await waitFor(() => t.tmux('list-clients', '-t', 'ralph-it').stdout.trim() !== '', 'the client to attach');
    writeFileSync(join(t.projectDir, 'stop'), '');
    await waitFor(() => t.tmux('capture-pane', '-p', '-J', '-t', 'ralph-it:0.0').stdout.includes('Press Enter'), 'the closing line');
    expect(t.tmux('send-keys', '-t', 'ralph-it:0.0', 'C-c').status).toBe(0);
    await waitFor(() => t.tmux('has-session', '-t', 'ralph-it').status !== 0, 'the session to close after Ctrl+C');
  });

  it('returns the loop exit code to the attached ralph --monitor once the session ends', async () => {
    const server = privateServer('');
    const projectDir = tempDir('ralph-tmux-');
    const messages: string[] = [];
    // The client blocks like `tmux attach` does, until the session is gone.
    const attach = (): number =>
      spawnSync('sh', ['-c', `touch stop; while tmux -L ${server.socket} has-session -t ralph-att 2>/dev/null; do sleep 0.05; done`], { cwd: projectDir })
        .status ?? 1;
    const result = await launchTmuxMonitor(
      {
        projectDir,
        loopCommand: LOOP,
        monitorCommand: MONITOR,
        paneRunner: PANE_RUNNER,
        sessionName: 'ralph-att',
        socketName: server.socket,
        configFile: server.configFile,
      },
      { runner: createProcessRunner(), now: () => 0, isTTY: true, env: {}, write: (m) => messages.push(m), attach },
    );
    expect(result).toEqual({ sessionName: 'ralph-att', attached: true, exitCode: 6 });
    expect(messages.join('')).toContain('Ralph loop finished with exit code 6 (verify gate aborted or exhausted, or review rejected).');
  });

  it('exits 0 and says where the loop runs when the watcher detaches', async () => {
    const server = privateServer('');
    const projectDir = tempDir('ralph-tmux-');
    const messages: string[] = [];
    const result = await launchTmuxMonitor(
      {
        projectDir,
        loopCommand: LOOP,
        monitorCommand: MONITOR,
        paneRunner: PANE_RUNNER,
        sessionName: 'ralph-det',
        socketName: server.socket,
        configFile: server.configFile,
      },
      { runner: createProcessRunner(), now: () => 0, isTTY: true, env: {}, write: (m) => messages.push(m), attach: () => 0 },
    );
    expect(result).toEqual({ sessionName: 'ralph-det', attached: true, exitCode: 0 });
    expect(messages.join('')).toContain('The loop keeps running in tmux session ralph-det');
    writeFileSync(join(projectDir, 'stop'), '');
  });
});

describe('checkTmux', () => {
  const missing = fakeRunner([{ command: 'tmux', result: { exitCode: undefined, spawnError: 'command not found: tmux' } }]);

  it('explains how to install tmux and the two-terminal alternative when it is missing', async () => {
    const check = await checkTmux(missing, '/');
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(/apt-get install tmux[\s\S]*brew install tmux[\s\S]*ralph --live[\s\S]*ralph-monitor/);
  });

  it('launch refuses with that message and writes nothing', async () => {
    const projectDir = tempDir('ralph-tmux-');
    await expect(
      launchTmuxMonitor(
        { projectDir, loopCommand: LOOP, monitorCommand: MONITOR, paneRunner: PANE_RUNNER },
        { runner: missing, now: () => 0, isTTY: false, env: {}, write: () => undefined },
      ),
    ).rejects.toBeInstanceOf(RalphError);
    expect(existsSync(join(projectDir, '.ralph', 'live.log'))).toBe(false);
  });

  it.skipIf(!hasTmux)('reports the installed version', async () => {
    const check = await checkTmux(createProcessRunner(), '/');
    expect(check).toMatchObject({ ok: true, version: expect.stringMatching(/^tmux /) });
  });
});

describe('shellCommand', () => {
  it('round-trips awkward arguments through a real shell', () => {
    const args = ['a b', "it's", '$HOME', '`id`', '"q"', '\\n', '*', 'new\nline', ''];
    const out = execFileSync('sh', ['-c', `printf '%s\\0' ${shellCommand(args)}`], { encoding: 'utf8' });
    expect(out.split('\0').slice(0, -1)).toEqual(args);
  });
});
