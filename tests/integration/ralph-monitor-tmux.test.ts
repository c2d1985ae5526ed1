// `ralph --monitor` end to end in real tmux on a private server (npm test builds first).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { shellCommand, WINDOW_TITLE } from '../../src/features/observe/tmux-monitor.js';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, ROOT, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const hasScript = spawnSync('script', ['--version']).status === 0;

/** A private tmux server for one test, killed when it ends. */
function privateTmux() {
  const socket = `ralph-cli-${randomBytes(4).toString('hex')}`;
  const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  onTestFinished(() => void tmux('kill-server'));
  return { socket, tmux };
}

/**
 * A `claude` that streams the first events of a recorded stream-json run, then
 * holds the call open until `release` exists, then streams the rest: output
 * that arrives while a call is still running.
 */
function slowClaude(release: string): string {
  const path = join(tempDir('slow-claude-'), 'claude');
  const fixture = join(ROOT, 'tests', 'fixtures', 'claude-cli', 'stream-json-success.jsonl');
  writeFileSync(
    path,
    `#!/usr/bin/env node
const fs = require('node:fs');
if (process.argv.includes('--version')) { console.log('2.1.197 (Claude Code)'); process.exit(0); }
const lines = fs.readFileSync(${JSON.stringify(fixture)}, 'utf8').trim().split('\\n');
process.stdout.write(lines.slice(0, 2).join('\\n') + '\\n');
const wait = setInterval(() => {
  if (!fs.existsSync(${JSON.stringify(release)})) return;
  clearInterval(wait);
  process.stdout.write(lines.slice(2).join('\\n') + '\\n');
}, 50);
`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe.skipIf(!hasTmux)('ralph --monitor', () => {
  it('shows the agent output in the Agent Output pane while the call runs', async () => {
    const { socket, tmux } = privateTmux();
    const dir = ralphProject();
    const release = join(tempDir('release-'), 'release');
    const env = cleanEnv({ RALPH_TMUX_SOCKET: socket, CLAUDE_CODE_CMD: slowClaude(release) });
    const r = await ralph(['--monitor', '--max-loops', '1', '--pause', '0'], dir, env);
    expect(r.exitCode, r.stderr).toBe(0);
    const name = /attach(?:-session)? -t (\S+)/.exec(r.stderr)?.[1] as string;
    const pane = (i: number): string => tmux('capture-pane', '-p', '-J', '-t', `${name}:0.${i}`).stdout;
    await waitFor(() => pane(1).includes("I'll create the file first."), 'the first words of the agent in the output pane').catch((e: Error) => {
      throw new Error(`${e.message}\n--- loop pane:\n${pane(0)}\n--- output pane:\n${pane(1)}`);
    });
    expect(existsSync(release)).toBe(false);
    writeFileSync(release, '');
    await waitFor(() => tmux('has-session', '-t', name).status !== 0, 'the loop to finish');
  });

  it.skipIf(!hasScript)('on a terminal: keeps the final screen until Enter, then exits with the loop exit code', async () => {
    const { socket, tmux } = privateTmux();
    const dir = ralphProject();
    writeMockScript(dir, [{ output: `step 1\n${statusBlock({ EXIT_SIGNAL: 'false' })}` }]);
    const command = shellCommand([process.execPath, join(ROOT, 'bin', 'ralph.js'), '--monitor', '--backend', 'mock', '--max-loops', '1', '--pause', '0']);
    // `script` gives ralph --monitor a real terminal, so it attaches as a person's would.
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: dir,
      env: cleanEnv({ RALPH_TMUX_SOCKET: socket, TERM: 'xterm' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    onTestFinished(() => void child.kill());
    const loopPane = (): string => {
      const name = tmux('list-sessions', '-F', '#{session_name}').stdout.trim().split('\n')[0] ?? '';
      return name ? tmux('capture-pane', '-p', '-J', '-t', `${name}:0.0`).stdout : '';
    };
    await waitFor(() => loopPane().includes('Press Enter'), 'the closing line in the loop pane');
    expect(loopPane()).toContain('Ralph loop finished with exit code 7 (a limit reached (loops, cost, runtime)).');
    const name = tmux('list-sessions', '-F', '#{session_name}').stdout.trim();
    expect(tmux('send-keys', '-t', `${name}:0.0`, 'Enter').status).toBe(0);
    expect(await exited).toBe(7);
    expect(screen).toContain('Ralph loop finished with exit code 7');
    expect(tmux('has-session', '-t', name).status).not.toBe(0);
  });

  it.skipIf(!hasScript)("inside tmux: opens a window in the user's session, waits for the loop, exits with its code, keeps the user attached", async () => {
    // The user's own tmux server, with a client attached on a real terminal.
    const { socket, tmux } = privateTmux();
    const env = cleanEnv({ TERM: 'xterm' });
    const server = spawnSync('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'user', '-x', '200', '-y', '50', 'sh'], {
      env,
      encoding: 'utf8',
    });
    expect(server.status, server.stderr).toBe(0);
    const client = spawn('script', ['-qec', shellCommand(['tmux', '-L', socket, 'attach-session', '-t', 'user']), '/dev/null'], {
      env,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    onTestFinished(() => void client.kill());
    const clients = (): string => tmux('list-clients', '-F', '#{client_name} #{session_name}').stdout.trim();
    await waitFor(() => clients() !== '', "the user's client to attach");

    const dir = ralphProject();
    writeMockScript(dir, [{ output: `step 1\n${statusBlock({ EXIT_SIGNAL: 'false' })}` }]);
    const rcFile = join(tempDir('monitor-rc-'), 'rc');
    const command = shellCommand([process.execPath, join(ROOT, 'bin', 'ralph.js'), '--monitor', '--backend', 'mock', '--max-loops', '1', '--pause', '0']);
    // Typed at the user's shell prompt: TMUX and TMUX_PANE come from the pane.
    expect(tmux('send-keys', '-t', 'user', `cd ${shellCommand([dir])} && ${command}; echo $? > ${shellCommand([rcFile])}`, 'Enter').status).toBe(0);

    const loopPane = (): string | undefined =>
      tmux('list-panes', '-a', '-F', '#{pane_id}|#{pane_title}')
        .stdout.split('\n')
        .find((l) => l.endsWith('|Ralph Loop'))
        ?.split('|')[0];
    const capture = (): string => {
      const id = loopPane();
      return id ? tmux('capture-pane', '-p', '-J', '-t', id).stdout : '';
    };
    await waitFor(() => capture().includes('Press Enter'), 'the closing line in the loop pane');
    expect(capture()).toContain('Ralph loop finished with exit code 7');
    // The panes are a window of the user's session, not a session of their own.
    expect(tmux('list-sessions', '-F', '#{session_name}').stdout.trim()).toBe('user');
    expect(tmux('list-windows', '-t', 'user', '-F', '#{window_name}').stdout).toContain(WINDOW_TITLE);
    expect(existsSync(rcFile)).toBe(false);

    expect(tmux('send-keys', '-t', loopPane() as string, 'Enter').status).toBe(0);
    await waitFor(() => existsSync(rcFile) && readFileSync(rcFile, 'utf8').trim() !== '', 'ralph --monitor to exit');
    expect(readFileSync(rcFile, 'utf8').trim()).toBe('7');
    expect(clients()).toMatch(/ user$/);
    expect(client.exitCode).toBeNull();
    expect(tmux('list-sessions', '-F', '#{session_name}').stdout.trim()).toBe('user');
    expect(tmux('list-windows', '-t', 'user', '-F', '#{window_name}').stdout).not.toContain(WINDOW_TITLE);
    expect(loopPane()).toBeUndefined();
    expect(tmux('capture-pane', '-p', '-J', '-t', 'user').stdout).toContain('Ralph loop finished with exit code 7');
  });

  it('refuses a bad flag before starting tmux, with the usual message and exit 2', async () => {
    const { socket, tmux } = privateTmux();
    const dir = ralphProject();
    const plain = await ralph(['--calls', '-1'], dir, cleanEnv());
    const r = await ralph(['--monitor', '--calls', '-1'], dir, cleanEnv({ RALPH_TMUX_SOCKET: socket }));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(plain.stderr);
    expect(r.stderr).not.toContain('tmux session');
    expect(tmux('list-sessions').status).not.toBe(0);
  });

  it('refuses outside a Ralph project before starting tmux, as ralph does', async () => {
    const { socket, tmux } = privateTmux();
    const dir = tempDir('not-a-project-');
    const plain = await ralph([], dir, cleanEnv());
    const r = await ralph(['--monitor'], dir, cleanEnv({ RALPH_TMUX_SOCKET: socket }));
    expect(r.exitCode).toBe(plain.exitCode);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('is not a Ralph project');
    expect(r.stderr).not.toContain('tmux session');
    expect(tmux('list-sessions').status).not.toBe(0);
  });

  for (const indexes of [0, 1]) {
    it(`runs the loop, live output and dashboard in tmux and cleans up (base-index ${indexes})`, async () => {
      const socket = `ralph-cli-${randomBytes(4).toString('hex')}`;
      const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
      onTestFinished(() => void tmux('kill-server'));
      const conf = join(tempDir('ralph-tmux-'), 'tmux.conf');
      writeFileSync(conf, `set -g base-index ${indexes}\nsetw -g pane-base-index ${indexes}\n`);
      // A server already running with this configuration, as a user's would be.
      expect(tmux('-f', conf, 'new-session', '-d', '-s', 'keepalive').status).toBe(0);

      const dir = ralphProject();
      writeMockScript(
        dir,
        [1, 2].map((n) => ({ output: `step ${n}\n${statusBlock({ EXIT_SIGNAL: 'false' })}`, files: { [`f${n}.txt`]: `${n}` } })),
      );
      const r = await ralph(
        ['--monitor', '--backend', 'mock', '--pause', '2', '--max-loops', '2', '--notify', '--dry-run'],
        dir,
        cleanEnv({ RALPH_TMUX_SOCKET: socket }),
      );
      expect(r.exitCode).toBe(0);
      const session = /tmux (?:-L \S+ )?attach(?:-session)? -t (\S+)/.exec(r.stderr)?.[1];
      expect(session, r.stderr).toBeDefined();
      const name = session as string;

      const panes = tmux('list-panes', '-t', name, '-F', '#{window_index}|#{pane_index}|#{pane_title}|#{pane_start_command}')
        .stdout.trim()
        .split('\n')
        .map((l) => l.split('|'));
      expect(panes.map((p) => [Number(p[0]), Number(p[1]), p[2]])).toEqual([
        [indexes, indexes, 'Ralph Loop'],
        [indexes, indexes + 1, 'Agent Output'],
        [indexes, indexes + 2, 'Status'],
      ]);
      const loopCommand = panes[0]?.[3] ?? '';
      for (const flag of ['--live', '--backend', 'mock', '--pause', '--max-loops', '--notify', '--dry-run']) expect(loopCommand).toContain(flag);
      expect(loopCommand).not.toContain('--monitor');
      expect(panes[2]?.[3]).toContain('ralph-monitor.js');

      const capture = (pane: number): string => tmux('capture-pane', '-p', '-J', '-t', `${name}:${indexes}.${indexes + pane}`).stdout;
      await waitFor(() => capture(0).includes('DRY RUN'), 'the loop to print in its pane');
      await waitFor(() => /RALPH MONITOR/i.test(capture(2)), 'the dashboard');
      await waitFor(() => tmux('has-session', '-t', name).status !== 0, 'the session to end with the loop');
      expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'dry_run', loop_count: 2 });
      expect(tmux('has-session', '-t', 'keepalive').status).toBe(0);
    });
  }

  it('explains how to install tmux and the two-terminal alternative when tmux is missing', async () => {
    const r = await ralph(['--monitor'], ralphProject(), cleanEnv({ PATH: '/nonexistent' }));
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/tmux/);
    expect(r.stderr).toContain('ralph-monitor');
  });
});
