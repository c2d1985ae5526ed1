import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, start } from '../../../src/infra/process.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import { isRunning, killTracked, pidFromFile, survivors, track } from '../../helpers/processes.js';
import { tempDir } from '../../helpers/temp-dir.js';

afterEach(() => killTracked());

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };

function sh(script: string, options: Partial<Parameters<typeof start>[2]> = {}) {
  return start('sh', ['-c', script], { cwd: options.cwd ?? tempDir('ralph-process-'), env, killGraceMs: 200, ...options });
}

/** A process that ignores SIGTERM and writes its PID to `file` (relative to the command's directory). */
const stubborn = (file: string): string => `sh -c 'trap "" TERM; echo $$ > ${file}; while :; do sleep 1; done'`;

describe('start: how a command ended', () => {
  it('reports the exit code and hands every chunk of output to the callbacks', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const r = await sh('echo out; printf err >&2; exit 3', { onStdout: (text) => out.push(text), onStderr: (text) => err.push(text) });
    expect(r).toMatchObject({ end: 'exited', exitCode: 3, signal: undefined, stdoutTail: 'out\n', stderrTail: 'err', stopped: [] });
    expect(out.join('')).toBe('out\n');
    expect(err.join('')).toBe('err');
    expect(r.failure).toBeUndefined();
  });

  it('hands the raw bytes to the callbacks along with the text', async () => {
    const bytes: Buffer[] = [];
    await sh(`printf 'h\\303\\251'`, { onStdout: (_text, chunk) => bytes.push(chunk) });
    expect(Buffer.concat(bytes)).toEqual(Buffer.from('hé'));
  });

  it('names the signal that ended the command', async () => {
    const r = await sh('kill -KILL $$');
    expect(r).toMatchObject({ end: 'exited', exitCode: undefined, signal: 'SIGKILL' });
  });

  it('a command that cannot be started is data, not an exception', async () => {
    const r = await start('ralph-no-such-command', [], { cwd: tempDir('ralph-process-'), env });
    expect(r).toMatchObject({ end: 'spawn_failed', exitCode: undefined, failure: 'command not found: ralph-no-such-command', stopped: [] });
  });

  it('stdin is closed: a command that reads it gets end-of-file at once', async () => {
    const r = await sh('cat; echo read-all', { timeoutMs: 5000 });
    expect(r).toMatchObject({ end: 'exited', exitCode: 0, stdoutTail: 'read-all\n' });
  });

  it('input is written to stdin, which is then closed', async () => {
    const r = await sh('cat', { input: 'line 1\nline 2\n' });
    expect(r.stdoutTail).toBe('line 1\nline 2\n');
  });

  it('keeps a bounded tail of the output while the callbacks see all of it', async () => {
    let seen = 0;
    const r = await sh(`i=0; while [ $i -lt 2000 ]; do echo "line $i of the output"; i=$((i+1)); done`, {
      tailChars: 100,
      onStdout: (text) => (seen += text.length),
    });
    expect(r.stdoutTail).toHaveLength(100);
    expect(r.stdoutTail.endsWith('line 1999 of the output\n')).toBe(true);
    expect(seen).toBeGreaterThan(40_000);
  });

  it('tells the caller the PID once the command runs', async () => {
    const pids: number[] = [];
    const dir = tempDir('ralph-process-');
    await sh('echo $$ > pid', { cwd: dir, onSpawn: (pid) => pids.push(pid) });
    expect(pids).toEqual([Number(readFileSync(join(dir, 'pid'), 'utf8'))]);
  });
});

describe('start: nothing outlives the command', () => {
  it('a timeout ends the group, its grandchildren and a SIGTERM-ignoring process that left the group', async () => {
    const dir = tempDir('ralph-process-');
    const r = await sh(`sleep 300 & echo $! > child.pid; setsid ${stubborn('escaped.pid')} & while [ ! -s escaped.pid ]; do sleep 0.01; done; sleep 300`, {
      cwd: dir,
      timeoutMs: 500,
    });
    const pids = [track(Number(readFileSync(join(dir, 'child.pid'), 'utf8'))), track(Number(readFileSync(join(dir, 'escaped.pid'), 'utf8')))];
    expect(r.end).toBe('timeout');
    expect(r.exitCode).toBeUndefined();
    expect(await survivors(pids)).toEqual([]);
    expect(r.stopped.map((p) => p.pid)).toEqual(expect.arrayContaining(pids));
  });

  it('aborting ends the command and everything it started at once', async () => {
    const dir = tempDir('ralph-process-');
    const controller = new AbortController();
    const running = sh('sleep 300 & echo $! > child.pid; sleep 300', { cwd: dir, signal: controller.signal });
    const child = await pidFromFile(join(dir, 'child.pid'));
    controller.abort();
    const r = await running;
    expect(r.end).toBe('interrupted');
    expect(await survivors([child])).toEqual([]);
  });

  it('an already aborted signal starts nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const dir = tempDir('ralph-process-');
    const r = await sh('touch started', { cwd: dir, signal: controller.signal });
    expect(r).toMatchObject({ end: 'interrupted', exitCode: undefined });
    expect(existsSync(join(dir, 'started'))).toBe(false);
  });

  it('what the command left running when it exited is stopped and reported', async () => {
    const dir = tempDir('ralph-process-');
    const r = await sh('sleep 300 >/dev/null 2>&1 & echo $! > child.pid', { cwd: dir });
    const child = track(Number(readFileSync(join(dir, 'child.pid'), 'utf8')));
    expect(r).toMatchObject({ end: 'exited', exitCode: 0 });
    expect(r.stopped.map((p) => p.pid)).toEqual([child]);
    expect(isRunning(child)).toBe(false);
  });

  it('a process out of reach that holds the pipes does not keep the call waiting', async () => {
    const dir = tempDir('ralph-process-');
    // No marker, its own session, and its parent gone: nothing ties it to the command any more.
    // The holder outlives the test's own limit: the call returning at all shows it did not wait.
    const script = `env -u RALPH_RUN_TOKEN setsid sh -c 'echo $$ > holder.pid; exec sleep 300' & while [ ! -s holder.pid ]; do sleep 0.01; done; echo done`;
    const r = await sh(script, { cwd: dir, drainMs: 300 });
    const holder = track(Number(readFileSync(join(dir, 'holder.pid'), 'utf8')));
    expect(r).toMatchObject({ end: 'exited', exitCode: 0, stdoutTail: 'done\n' });
    expect(isRunning(holder)).toBe(true);
  });
});

describe('run: short helpers', () => {
  it('buffers stdout and stderr as bytes and never throws for a non-zero exit', async () => {
    const r = await run('sh', ['-c', 'printf out; printf err >&2; exit 4'], { cwd: tempDir('ralph-process-'), env });
    expect(r).toMatchObject({ end: 'exited', exitCode: 4 });
    expect(r.stdout.toString()).toBe('out');
    expect(r.stderr.toString()).toBe('err');
  });

  it('writes input to stdin, and uses only the environment it is given', async () => {
    const r = await run('sh', ['-c', 'cat; printf "[$ONLY_HERE][$HOME]"'], {
      cwd: tempDir('ralph-process-'),
      env: { ...env, ONLY_HERE: 'yes' },
      input: Buffer.from('bytes in '),
    });
    expect(r.stdout.toString()).toBe('bytes in [yes][]');
  });

  it('a command that cannot be started is data', async () => {
    const r = await run('ralph-no-such-command', [], { cwd: tempDir('ralph-process-') });
    expect(r).toMatchObject({ end: 'spawn_failed', exitCode: undefined, failure: 'command not found: ralph-no-such-command' });
  });

  it('a time limit ends the command and what it started', async () => {
    const dir = tempDir('ralph-process-');
    const r = await run('sh', ['-c', 'sleep 300 & echo $! > child.pid; wait'], { cwd: dir, env, timeoutMs: 300, killGraceMs: 200 });
    expect(r.end).toBe('timeout');
    expect(await survivors([track(Number(readFileSync(join(dir, 'child.pid'), 'utf8')))])).toEqual([]);
  });

  it('aborting ends the command', async () => {
    const controller = new AbortController();
    const running = run('sleep', ['300'], { cwd: tempDir('ralph-process-'), env, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await running).end).toBe('interrupted');
  });
});

describe('createProcessRunner', () => {
  it('gives text output, a timedOut flag and the reason a command could not start', async () => {
    const runner = createProcessRunner();
    const cwd = tempDir('ralph-process-');
    expect(await runner.run('sh', ['-c', 'printf héllo; exit 2'], { cwd })).toMatchObject({ exitCode: 2, stdout: 'héllo', stderr: '', timedOut: false });
    expect(await runner.run('sleep', ['300'], { cwd, timeoutMs: 100 })).toMatchObject({ exitCode: undefined, timedOut: true });
    expect((await runner.run('ralph-no-such-command', [], { cwd })).spawnError).toBe('command not found: ralph-no-such-command');
  });

  it('a helper that ignores SIGTERM past its limit gets SIGKILL', async () => {
    const runner = createProcessRunner();
    // The loop never ends by itself: the call returning at all is the SIGKILL's doing.
    const r = await runner.run('sh', ['-c', 'trap "" TERM; while :; do sleep 0.05; done'], { cwd: tempDir('ralph-process-'), timeoutMs: 100 });
    expect(r.timedOut).toBe(true);
  });
});
