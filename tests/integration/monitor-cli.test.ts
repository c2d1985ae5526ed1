// Spawns the built CLI: run `npx tsc -p tsconfig.build.json` first (`npm test` does).
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { displayWidth } from '../../src/ui/text-fit.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';

const BIN = resolve('bin/ralph-monitor.js');
const hasTmux = spawnSync('tmux', ['-V']).status === 0;

const ENV = { ...process.env, NO_COLOR: '1' };

function run(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env: ENV, encoding: 'utf8', timeout: 100_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function project(): string {
  const dir = tempDir('ralph-monitor-cli-');
  mkdirSync(join(dir, '.ralph', 'logs'), { recursive: true });
  writeFileSync(
    join(dir, '.ralph', 'status.json'),
    JSON.stringify({
      timestamp: new Date().toISOString(),
      loop_count: 5,
      calls_made_this_hour: 5,
      max_calls_per_hour: 100,
      status: 'halted',
      last_action: 'circuit_breaker_open',
      exit_reason: 'circuit_breaker_open',
      exit_code: 3,
      totals: { cost_usd: 1.25, input_tokens: 1000, output_tokens: 200, calls: 5, num_turns: 9 },
      verify: {
        command: 'npm test',
        state: 'failing',
        attempt: 1,
        max_attempts: 3,
        last: { passed: false, exit_code: 2, timed_out: false, duration_ms: 1500, output_tail: 'boom', at: '' },
      },
    }),
  );
  writeFileSync(
    join(dir, '.ralph', '.circuit_breaker_state'),
    JSON.stringify({ state: 'OPEN', reason: 'No progress detected in 3 consecutive loops', consecutive_no_progress: 3 }),
  );
  writeFileSync(join(dir, '.ralph', 'logs', 'ralph.log'), '[2026-03-01 12:00:00] [ERROR] 🚨 CIRCUIT BREAKER OPENED\n');
  return dir;
}

describe('ralph-monitor (built CLI)', () => {
  it('--once prints one frame of the project state and exits 0', () => {
    const r = run(['--once'], project());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('RALPH MONITOR');
    expect(r.stdout).toMatch(/Loop: +#5/);
    expect(r.stdout).toMatch(/Circuit: +OPEN — No progress detected in 3 consecutive loops/);
    expect(r.stdout).toMatch(/Exit reason: +circuit_breaker_open \(exit code 3\)/);
    expect(r.stdout).toMatch(/Result: +FAILED \(exit 2\) · attempt 1\/3/);
    expect(r.stdout).toContain('CIRCUIT BREAKER OPENED');
    expect(r.stdout).not.toContain('\u001b');
    for (const line of r.stdout.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    expect(r.stderr).toBe('');
  });

  it('--once into a pipe: no interactive footer, no spinner glyph, nothing cut', () => {
    const dir = project();
    const id = '9f3c2a71-5d0e-4b8a-a6f1-2c9d8e7b6a50-with-a-long-tail-from-the-agent';
    const statusFile = join(dir, '.ralph', 'status.json');
    writeFileSync(statusFile, JSON.stringify({ ...JSON.parse(readFileSync(statusFile, 'utf8')), session_id: id }));
    const long = `[2026-03-01 12:00:01] [INFO] ${'y'.repeat(140)}END`;
    appendFileSync(join(dir, '.ralph', 'logs', 'ralph.log'), `${long}\n`);
    const r = run(['--once'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('Controls:');
    expect(r.stdout).not.toContain('Refreshes every');
    expect(r.stdout).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/u);
    expect(r.stdout).toMatch(new RegExp(`Session: +${id}$`, 'm'));
    expect(r.stdout).toContain(`${'y'.repeat(140)}END`);
    expect(r.stdout).not.toContain('…');
  });

  it('after ralph --stop, --status and --once say a stop is pending while the loop finishes its step', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([{ sleep_ms: 60_000 }]);
    const loop = runCli('ralph', ['--pause', '0'], dir, fake.env);
    onTestFinished(() => void loop.kill('SIGKILL'));
    await waitFor(() => fake.calls().length === 1, 'the first agent call');
    const before = await ralph(['--status'], dir);
    expect(before.stdout).not.toMatch(/^ +Stop/m);
    expect(before.stdout).not.toContain('next slot');
    expect((await ralph(['--stop'], dir)).exitCode).toBe(0);
    const status = await ralph(['--status'], dir);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toMatch(/^ +Status +running/m);
    expect(status.stdout).toMatch(/^ +Stop +requested at \d\d:\d\d:\d\d \(\d+s ago\); the loop stops before its next step$/m);
    expect(status.stdout).not.toContain('next slot');
    const frame = run(['--once'], dir);
    expect(frame.stdout).toMatch(/Stop: +requested at \d\d:\d\d:\d\d \(\d+s ago\); the loop stops before its next step/);
    expect(frame.stdout).not.toContain('next slot');
    loop.kill('SIGTERM');
    await loop;
  });

  it('--once in a directory without Ralph says so and fails', () => {
    const dir = tempDir('ralph-monitor-cli-');
    const r = run(['--once'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${dir} is not a Ralph project (there is no .ralph/ directory)`);
  });

  it('--once in a project that has not run yet shows the empty frame', () => {
    const dir = tempDir('ralph-monitor-cli-');
    mkdirSync(join(dir, '.ralph'));
    const r = run(['--once'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Status file not found. Ralph may not be running.');
  });

  it('--json prints exactly one JSON document of the snapshot', () => {
    const dir = project();
    const r = run(['--json', '--project', dir], tempDir('ralph-elsewhere-'));
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({
      projectDir: dir,
      status: { kind: 'ok', doc: { loop_count: 5, exit_code: 3 } },
      circuit: { kind: 'ok', value: { state: 'OPEN' } },
      progress: { kind: 'missing' },
      logLines: ['[2026-03-01 12:00:00] [ERROR] 🚨 CIRCUIT BREAKER OPENED'],
    });
    expect(r.stderr).toBe('');
  });

  it('--json shows a corrupt status file as corrupt', () => {
    const dir = project();
    writeFileSync(join(dir, '.ralph', 'status.json'), '{"loop_count": ');
    const doc = JSON.parse(run(['--json'], dir).stdout) as { status: { kind: string; reason: string } };
    expect(doc.status.kind).toBe('corrupt');
    expect(doc.status.reason).toContain('not valid JSON');
  });

  it.each([[['--bogus']], [['--interval', 'abc']], [['--interval', '0']], [['extra-arg']]])('usage error %j exits 2 naming the problem', (args) => {
    const r = run(args, project());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: /);
    expect(r.stderr).toContain('ralph-monitor --help');
    expect(r.stdout).toBe('');
  });

  it('--help and --version exit 0 on stdout', () => {
    const help = run(['--help'], project());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--interval <sec>');
    const version = run(['--version'], project());
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('runs until SIGINT, then says "Monitor stopped." and exits 0', async () => {
    const child = spawn(process.execPath, [BIN, '--interval', '0.5'], { cwd: project(), env: ENV });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if ((stdout.match(/RALPH MONITOR/g) ?? []).length === 2) child.kill('SIGINT');
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    expect(code).toBe(0);
    expect(stderr).toBe('Monitor stopped.\n');
    expect(stdout).not.toContain('\u001b'); // stdout is a pipe here, not a terminal
  });

  it.skipIf(!hasTmux)('on a real terminal (a tmux pane): redraws in place, hides the cursor, restores it on Ctrl+C', async () => {
    const socket = `ralph-test-${randomBytes(4).toString('hex')}`;
    const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
    onTestFinished(() => void tmux('kill-server'));
    const dir = project();
    // The shell around the monitor ignores Ctrl+C itself (dash, unlike bash, would end with it and
    // take the pane along); the monitor sets its own handler, so the key still reaches it.
    const command = `trap '' INT; ${process.execPath} ${BIN} --interval 0.5 --no-color; echo EXITED=$?; sleep 60`;
    expect(tmux('new-session', '-d', '-x', '100', '-y', '40', '-s', 'm', '-c', dir, command).status).toBe(0);
    const screen = () => tmux('capture-pane', '-p', '-t', 'm').stdout;
    const pane = (format: string) => tmux('display-message', '-p', '-t', 'm', format).stdout.trim();
    await waitFor(() => screen().includes('CIRCUIT BREAKER OPENED'), 'the first frame');
    appendFileSync(join(dir, '.ralph', 'logs', 'ralph.log'), '[2026-03-01 12:00:01] [INFO] a later line\n');
    await waitFor(() => screen().includes('a later line'), 'a redraw with the new log line');
    expect(screen().match(/RALPH MONITOR/g)).toHaveLength(1);
    expect(pane('#{history_size}')).toBe('0'); // nothing scrolled: every frame overwrote the last
    expect(pane('#{cursor_flag}')).toBe('0');
    tmux('send-keys', '-t', 'm', 'C-c');
    await waitFor(() => screen().includes('EXITED=0'), 'the monitor to exit');
    expect(screen()).toContain('Monitor stopped.');
    expect(pane('#{cursor_flag}')).toBe('1');
  });
});
