// After a kill -9 of Ralph nothing it started keeps running: the watchdog ends
// the agent and the verify command (and what they started) within seconds,
// and if even the watchdog is gone, the next start ends what the dead run left
// behind. Real `ralph` processes, real kill -9. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning, killTracked, pidFromFile, survivors, track } from '../helpers/processes.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph, readJson, resultJson, runCli, statusBlock, type FakeCall } from '../helpers/run-cli.js';
import { pressCtrlC } from '../helpers/ctrl-c.js';
import { waitFor } from '../helpers/wait-for.js';

const inProgress = resultJson(`Worked.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`);
const stubborn = (file: string): string => `trap "" TERM; echo $$ > "${file}"; exec sleep 300`;

/** An agent call that leaves a pipe-holding background child and a setsid, SIGTERM-ignoring one, then works for five minutes (longer than any test waits). */
const busyAgent: FakeCall = {
  stdout: inProgress,
  sleep_ms: 300_000,
  background: 'echo $$ > "$FAKE_CLAUDE_STATE/bg.pid"; exec sleep 300',
  shell: `setsid sh -c '${stubborn('$FAKE_CLAUDE_STATE/setsid.pid')}' >/dev/null 2>&1 &`,
};

afterEach(() => killTracked());

function kill9(pid: number): void {
  process.kill(pid, 'SIGKILL');
}

describe('kill -9 of Ralph', () => {
  it('the watchdog ends the agent, its background child and its setsid child within seconds', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([busyAgent]);
    const run = runCli('ralph', ['--pause', '0'], dir, fake.env);
    const ralphPid = track(run.pid as number);
    const pids = [
      await pidFromFile(join(fake.stateDir, 'bg.pid')),
      await pidFromFile(join(fake.stateDir, 'setsid.pid')),
      track(fake.calls()[0]?.pid as number),
    ];
    const runFile = join(dir, '.git', 'ralph', 'run.json');
    const watchdog = existsSync(runFile) ? track(readJson<{ watchdog_pid: number }>(runFile).watchdog_pid) : undefined;
    kill9(ralphPid);
    await run;
    expect(await survivors(pids)).toEqual([]);
    // Its work done, the watchdog is gone too.
    expect(watchdog).toBeGreaterThan(0);
    expect(await survivors([watchdog as number])).toEqual([]);
  });

  it('the watchdog also ends a verify command and what it started', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([], { default: { stdout: inProgress } });
    const verify = `setsid sh -c '${stubborn('$PWD/.ralph/verify-child.pid')}' >/dev/null 2>&1 & echo $$ > .ralph/verify.pid; sleep 300`;
    const run = runCli('ralph', ['--pause', '0', '--verify', verify], dir, fake.env);
    const ralphPid = track(run.pid as number);
    const pids = [await pidFromFile(join(dir, '.ralph', 'verify.pid')), await pidFromFile(join(dir, '.ralph', 'verify-child.pid'))];
    kill9(ralphPid);
    await run;
    expect(await survivors(pids)).toEqual([]);
  });

  it('a second Ctrl+C (forced exit) leaves nothing running either', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([{ ...busyAgent, ignore_term: true }]);
    const run = runCli('ralph', ['--pause', '0'], dir, fake.env);
    track(run.pid as number);
    const pids = [
      await pidFromFile(join(fake.stateDir, 'bg.pid')),
      await pidFromFile(join(fake.stateDir, 'setsid.pid')),
      track(fake.calls()[0]?.pid as number),
    ];
    await pressCtrlC(run, 2);
    expect((await run).exitCode).toBe(130);
    expect(await survivors(pids)).toEqual([]);
  });

  it('without the watchdog, the next start ends what the dead run left and says so; a look-alike survives', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([busyAgent, { stdout: inProgress }]);
    const lookalike = track(spawn('sh', ['-c', 'trap "" TERM; exec sleep 300'], { stdio: 'ignore', detached: true }).pid as number);
    const run = runCli('ralph', ['--pause', '0'], dir, fake.env);
    const ralphPid = track(run.pid as number);
    const pids = [
      await pidFromFile(join(fake.stateDir, 'bg.pid')),
      await pidFromFile(join(fake.stateDir, 'setsid.pid')),
      track(fake.calls()[0]?.pid as number),
    ];
    const runFile = join(dir, '.git', 'ralph', 'run.json');
    const watchdog = track(readJson<{ watchdog_pid: number }>(runFile).watchdog_pid);
    kill9(watchdog);
    kill9(ralphPid);
    await run;
    // Nothing ended them: with Ralph and its watchdog gone, they are orphans now.
    await waitFor(() => !isRunning(watchdog), 'the watchdog to be gone');
    expect(pids.filter(isRunning)).toEqual(pids);

    const next = await ralph(['--max-loops', '1', '--pause', '0'], dir, fake.env);
    expect(next.exitCode).toBe(7);
    expect(next.stderr).toContain(`A previous Ralph run (PID ${ralphPid}) ended without stopping what it started`);
    for (const pid of pids) expect(next.stderr).toContain(`${pid} (`);
    expect(await survivors(pids)).toEqual([]);
    expect(isRunning(lookalike)).toBe(true);
    expect(existsSync(runFile)).toBe(false);
  });
});
