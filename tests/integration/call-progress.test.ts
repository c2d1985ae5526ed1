// The sign of life during an agent call, as a person at a terminal sees it:
// the built CLI runs under `script`, which gives it a real pseudo-terminal.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellCommand } from '../../src/features/observe/tmux-monitor.js';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, ROOT, statusBlock } from '../helpers/run-cli.js';

const hasScript = spawnSync('script', ['--version']).status === 0;

function onTerminal(args: string[], cwd: string): { status: number | null; screen: string } {
  const command = shellCommand([process.execPath, join(ROOT, 'bin', 'ralph.js'), ...args]);
  const r = spawnSync('script', ['-qec', command, '/dev/null'], {
    cwd,
    env: cleanEnv({ TERM: 'xterm' }),
    encoding: 'utf8',
    timeout: 110_000,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return { status: r.status, screen: r.stdout };
}

describe.skipIf(!hasScript)('sign of life during an agent call on a terminal', () => {
  const args = ['--backend', 'mock', '--max-loops', '1', '--pause', '0'];
  const project = (): string => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: `working\n${statusBlock({ EXIT_SIGNAL: 'false' })}`, delay_ms: 300 }]);
    return dir;
  };

  it('shows a spinner with the elapsed time while the agent works, and clears it', () => {
    const r = onTerminal(args, project());
    expect(r.status, r.screen).toBe(7);
    expect(r.screen).toMatch(/\r\x1b\[2K⠋ mock agent working · 0s/);
    // The last frame is cleared before anything else is printed.
    expect(r.screen.slice(r.screen.lastIndexOf('agent working'))).toMatch(/^agent working[^\n\r]*\r\x1b\[2K/);
  });

  it('shows no spinner with --live, where the output itself streams', () => {
    const r = onTerminal([...args, '--live'], project());
    expect(r.status, r.screen).toBe(7);
    expect(r.screen).not.toContain('agent working');
  });
});
