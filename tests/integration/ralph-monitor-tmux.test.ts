// `ralph --monitor` end to end in real tmux on a private server (npm test builds first).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;

async function waitFor(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!hasTmux)('ralph --monitor', () => {
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
      writeMockScript(dir, [1, 2].map((n) => ({ output: `step ${n}\n${statusBlock({ EXIT_SIGNAL: 'false' })}`, files: { [`f${n}.txt`]: `${n}` } })));
      const r = await ralph(['--monitor', '--backend', 'mock', '--pause', '2', '--max-loops', '2', '--notify', '--dry-run'], dir, cleanEnv({ RALPH_TMUX_SOCKET: socket }));
      expect(r.exitCode).toBe(0);
      const session = /tmux (?:-L \S+ )?attach(?:-session)? -t (\S+)/.exec(r.stderr)?.[1];
      expect(session, r.stderr).toBeDefined();
      const name = session as string;

      const panes = tmux('list-panes', '-t', name, '-F', '#{window_index}|#{pane_index}|#{pane_title}|#{pane_start_command}').stdout.trim().split('\n').map((l) => l.split('|'));
      expect(panes.map((p) => [Number(p[0]), Number(p[1]), p[2]])).toEqual([
        [indexes, indexes, 'Ralph Loop'],
        [indexes, indexes + 1, 'Claude Output'],
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
