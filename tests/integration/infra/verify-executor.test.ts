import { isRunning } from '../../helpers/processes.js';
import { spawn } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRedactor, NO_REDACTION } from '../../../src/core/secret-redactor.js';
import { buildVerifyEnv } from '../../../src/core/verify-env.js';
import { runVerifyCommand, truncationNotice, type VerifyOptions } from '../../../src/infra/verify-executor.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { waitFor } from '../../helpers/wait-for.js';

const env = buildVerifyEnv(process.env);

function run(command: string, overrides: Partial<VerifyOptions> = {}) {
  return runVerifyCommand({ command, cwd: overrides.cwd ?? tempDir('ralph-verify-'), timeoutMs: 10_000, env, redactor: NO_REDACTION, ...overrides });
}

/**
 * Whether any process of the group still runs. Zombies are ignored for the same
 * reason as above: this machine's PID 1 does not reap orphans, so a killed
 * grandchild stays listed as <defunct> although nothing runs any more.
 */
function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .some((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(pgrp) === pgid && state !== 'Z';
      } catch {
        return false;
      }
    });
}

/** Whether `check` comes to hold (polled; on a busy machine a killed process takes a while to go). */
async function eventually(check: () => boolean): Promise<boolean> {
  await waitFor(check).catch(() => undefined);
  return check();
}

describe('runVerifyCommand: pass and fail', () => {
  it('scenario 1: exit 0 passes and keeps stdout', async () => {
    const r = await run('echo SUCCESS && exit 0');
    expect(r).toMatchObject({
      command: 'echo SUCCESS && exit 0',
      passed: true,
      exitCode: 0,
      signal: null,
      timedOut: false,
      stdout: 'SUCCESS\n',
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
    });
    expect(r.explanation).toBeUndefined();
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('a non-zero exit fails, stdout and stderr kept apart', async () => {
    const r = await run('echo out; echo err >&2; exit 3');
    expect(r).toMatchObject({ passed: false, exitCode: 3, timedOut: false, stdout: 'out\n', stderr: 'err\n' });
    expect(r.explanation).toBeUndefined();
  });

  it('empty output is fine', async () => {
    expect(await run('true')).toMatchObject({ passed: true, stdout: '', stderr: '' });
  });

  it('redacts with the redactor it is given, on stdout and on stderr', async () => {
    const secret = 'verify-secret-4f9a1c';
    const r = await run(`echo "token ${secret}"; echo "${secret}" >&2`, { redactor: createRedactor([{ name: 'DEPLOY_TOKEN', value: secret }]) });
    expect(r.passed).toBe(true);
    expect(`${r.stdout}${r.stderr}`).not.toContain(secret);
    expect(r.stdout).toContain('token ');
    // Without one that knows it, the same output is kept as it was.
    expect((await run(`echo "${secret}"`)).stdout).toBe(`${secret}\n`);
  });
});

describe('runVerifyCommand: timeouts kill the whole process group', () => {
  it('scenario 7: sleep 300 with a 2 s limit → timedOut, group gone', async () => {
    let pid = 0;
    const r = await run('sleep 300', { timeoutMs: 2000, onStart: (p) => (pid = p) });
    // That it was killed at all (and not after 300 s) is what `timedOut` and the gone group say.
    expect(r).toMatchObject({ passed: false, timedOut: true, exitCode: null, timeoutMs: 2000 });
    expect(r.explanation).toMatch(/^timed out after 2s/);
    expect(pid).toBeGreaterThan(0);
    expect(groupExists(pid)).toBe(false);
    expect(isRunning(pid)).toBe(false);
  });

  it('a command that ends inside its limit is not stopped: the limit is a ceiling, not a clock to race', async () => {
    // A child of the command that ends on its own, then the command's own output after it.
    const r = await run('sleep 0.2; echo finished', { timeoutMs: 600_000 });
    expect(r).toMatchObject({ passed: true, timedOut: false, exitCode: 0 });
    expect(r.stdout).toContain('finished');
  });

  it("a grandchild (sh -c 'sleep 300 & wait') is killed too, checked by PID", async () => {
    let pgid = 0;
    const r = await run(`sh -c 'sleep 300 & echo $!; wait'`, { timeoutMs: 1000, onStart: (p) => (pgid = p) });
    const grandchild = Number(r.stdout.trim());
    expect(r.timedOut).toBe(true);
    expect(grandchild).toBeGreaterThan(0);
    expect(await eventually(() => !isRunning(grandchild))).toBe(true);
    expect(groupExists(pgid)).toBe(false);
  });

  it('a process that ignores SIGTERM gets SIGKILL after the grace period', async () => {
    // Without the SIGKILL this would wait for `sleep 300`, past the test's own limit.
    const r = await run(`trap '' TERM; sleep 300 & echo $!; wait`, { timeoutMs: 500, killGraceMs: 300 });
    const pid = Number(r.stdout.trim());
    expect(r.timedOut).toBe(true);
    expect(await eventually(() => !isRunning(pid))).toBe(true);
  });

  it('a background process left behind by a passing command does not outlive the gate', async () => {
    // The gate returns without waiting for `sleep 300` (which would outlast the test's own limit).
    const r = await run('sleep 300 & echo $!', { timeoutMs: 600_000 });
    const pid = Number(r.stdout.trim());
    expect(r.passed).toBe(true);
    expect(await eventually(() => !isRunning(pid))).toBe(true);
  });

  it('a setsid, SIGTERM-ignoring child holding stdout is ended too and named; a look-alike the test started survives', async () => {
    const dir = tempDir('ralph-verify-');
    const lookalike = spawn('sh', ['-c', 'trap "" TERM; exec sleep 300'], { stdio: 'ignore', detached: true });
    try {
      // The command ends once the escaped child has become `sleep` (not while it is still the `sh` about to exec it), so the name the sweep reports is settled.
      const settled = `while [ ! -s escaped.pid ] || { [ -d /proc/self ] && [ "$(cat /proc/$(cat escaped.pid)/comm 2>/dev/null)" != sleep ]; }; do sleep 0.01; done`;
      const r = await run(`setsid sh -c 'trap "" TERM; echo $$ > escaped.pid; exec sleep 300' & ${settled}; echo done`, {
        cwd: dir,
        killGraceMs: 200,
      });
      const pid = Number(readFileSync(join(dir, 'escaped.pid'), 'utf8'));
      expect(r.passed).toBe(true);
      expect(r.stdout).toBe('done\n');
      expect(await eventually(() => !isRunning(pid))).toBe(true);
      expect(r.stoppedProcesses).toEqual([`${pid} (sleep)`]);
      expect(isRunning(lookalike.pid as number)).toBe(true);
    } finally {
      lookalike.kill('SIGKILL');
    }
  });

  it('an AbortSignal stops the command at once', async () => {
    const controller = new AbortController();
    // Aborted as soon as it runs; `sleep 300` would outlast the test's own limit otherwise.
    const r = await run('sleep 300', { signal: controller.signal, timeoutMs: 600_000, onStart: () => controller.abort() });
    expect(r).toMatchObject({ passed: false, cancelled: true, timedOut: false, exitCode: null });
  });
});

describe('runVerifyCommand: exit codes explained', () => {
  it('scenario 9: exit 127 → "command not found" said plainly', async () => {
    const r = await run('nonexistent_command_xyz');
    expect(r).toMatchObject({ passed: false, exitCode: 127, explanation: 'command not found: nonexistent_command_xyz' });
    expect(r.stderr).toContain('not found');
  });

  it('names the missing command even when it is not the first word', async () => {
    expect((await run('true && missing_tool_abc --flag')).explanation).toBe('command not found: missing_tool_abc');
  });

  it('exit 126 → not executable', async () => {
    const dir = tempDir('ralph-verify-');
    writeFileSync(join(dir, 'check.sh'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(dir, 'check.sh'), 0o644);
    const r = await run('./check.sh', { cwd: dir });
    expect(r.exitCode).toBe(126);
    expect(r.explanation).toBe('not executable (permission denied or not a program): ./check.sh');
  });

  it('exit 128+n → the signal by name', async () => {
    const r = await run(`sh -c 'kill -9 $$'`);
    expect(r.exitCode).toBe(137);
    expect(r.explanation).toBe('ended by signal SIGKILL, killed — often the system running out of memory (exit 137 = 128 + 9)');
  });

  it('the shell itself killed by a signal', async () => {
    const r = await run('kill -TERM $$');
    expect(r).toMatchObject({ passed: false, exitCode: null, signal: 'SIGTERM', timedOut: false });
    expect(r.explanation).toBe('the shell was ended by signal SIGTERM, terminated');
  });
});

describe('runVerifyCommand: output', () => {
  it('scenario 8: seq 1 10000 keeps the last 5000 chars with the exact notice', async () => {
    const r = await run('seq 1 10000');
    const notice = '[...truncated, showing last 5000 chars...]\n';
    expect(truncationNotice(5000)).toBe(notice);
    expect(r.stdoutTruncated).toBe(true);
    expect(r.stdout.startsWith(notice)).toBe(true);
    expect(r.stdout.length).toBe(notice.length + 5000);
    expect(r.stdout.endsWith('9999\n10000\n')).toBe(true);
    const full = Array.from({ length: 10000 }, (_, i) => `${i + 1}\n`).join('');
    expect(r.stdout.slice(notice.length)).toBe(full.slice(-5000));
    expect(r.stderrTruncated).toBe(false);
  });

  it('honours maxOutputChars, per stream', async () => {
    const r = await run('seq 1 1000; seq 1 1000 >&2', { maxOutputChars: 100 });
    expect(r.stdout.startsWith('[...truncated, showing last 100 chars...]\n')).toBe(true);
    expect(r.stderr.startsWith('[...truncated, showing last 100 chars...]\n')).toBe(true);
    expect(r.stdout.endsWith('1000\n')).toBe(true);
  });

  it('unicode output arrives intact', async () => {
    const r = await run(`printf 'héllo wörld ✓ 日本語 😀\\n'`);
    expect(r.stdout).toBe('héllo wörld ✓ 日本語 😀\n');
  });

  it('a truncated tail of emoji never starts with half a character', async () => {
    const r = await run(`i=0; while [ $i -lt 3000 ]; do printf '😀'; i=$((i+1)); done`, { maxOutputChars: 1001 });
    const body = r.stdout.slice('[...truncated, showing last 1001 chars...]\n'.length);
    expect(r.stdoutTruncated).toBe(true);
    expect(body).toBe('😀'.repeat(500));
  });

  it('an interactive command gets end-of-file on stdin instead of hanging', async () => {
    // A hang would end at the limit: timedOut, and no `done`.
    const r = await run('read answer; echo "got:[$answer]"; cat; echo done', { timeoutMs: 60_000 });
    expect(r.timedOut).toBe(false);
    expect(r.stdout).toBe('got:[]\ndone\n');
  });
});

describe('runVerifyCommand: environment and directory', () => {
  it('scenario 10: secrets do not reach the command; PATH and HOME do', async () => {
    const parent = { ...process.env, GITHUB_TOKEN: 'ghp_secret123', AWS_SECRET_ACCESS_KEY: 'secret-key', ANTHROPIC_API_KEY: 'sk-ant', HOME: '/home/tester' };
    const r = await run('echo "[$GITHUB_TOKEN][$AWS_SECRET_ACCESS_KEY][$ANTHROPIC_API_KEY]"; echo "$HOME"; command -v sh >/dev/null && echo path-ok; env', {
      env: buildVerifyEnv(parent, { CUSTOM_FLAG: 'on' }),
    });
    expect(r.stdout.split('\n').slice(0, 3)).toEqual(['[][][]', '/home/tester', 'path-ok']);
    expect(r.stdout).not.toContain('ghp_secret123');
    expect(r.stdout).not.toContain('secret-key');
    expect(r.stdout).toContain('CUSTOM_FLAG=on');
  });

  it('scenario 14: the working directory is honoured', async () => {
    const dir = tempDir('ralph-verify-cwd-');
    const r = await run('pwd', { cwd: dir });
    expect(realpathSync(r.stdout.trim())).toBe(realpathSync(dir));
    expect(r.cwd).toBe(dir);
  });

  it('a missing directory is a clear failed result, not a crash', async () => {
    const missing = join(tempDir('ralph-verify-'), 'packages', 'nope');
    const r = await run('true', { cwd: missing });
    expect(r).toMatchObject({ passed: false, exitCode: null, timedOut: false, durationMs: 0 });
    expect(r.explanation).toBe(`the verify directory does not exist: ${missing} (check --verify-cwd / workingDir)`);
  });

  it('a file instead of a directory is reported too', async () => {
    const dir = tempDir('ralph-verify-');
    writeFileSync(join(dir, 'f'), '');
    expect((await run('true', { cwd: join(dir, 'f') })).explanation).toMatch(/is not a directory/);
  });

  it('an empty command fails at once with an explanation', async () => {
    for (const command of ['', '   ']) {
      const r = await run(command);
      expect(r).toMatchObject({ passed: false, exitCode: null, explanation: 'the verify command is empty' });
    }
  });
});

describe('runVerifyCommand: many runs', () => {
  it('does not leak file descriptors or processes over rapid executions', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => run(`echo ${i}`)));
    expect(results.every((r, i) => r.passed && r.stdout === `${i}\n`)).toBe(true);
  });
});
