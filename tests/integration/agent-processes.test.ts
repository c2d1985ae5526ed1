// What the agent starts never outlives its call: background children holding
// its pipes, Bash tool commands in a session of their own (setsid), processes
// that ignore SIGTERM — at a normal exit, on timeout and on Ctrl+C. Processes
// Ralph did not start are never touched. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning, killTracked, pidFromFile, survivors, track } from '../helpers/processes.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph, resultJson, runCli, statusBlock } from '../helpers/run-cli.js';

const inProgress = resultJson(`Worked.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`);

/** sh that writes its PID to `file`, ignores SIGTERM (inherited through exec) and sleeps. */
const stubborn = (file: string): string => `trap "" TERM; echo $$ > "${file}"; exec sleep 300`;

afterEach(() => killTracked());

describe('processes the agent leaves running', () => {
  it("a background process holding the agent's stdout and stderr neither keeps Ralph from exiting nor survives it", async () => {
    const dir = ralphProject();
    const fake = fakeClaude([], { default: { stdout: inProgress, background: 'echo $$ > "$FAKE_CLAUDE_STATE/bg.pid"; exec sleep 300' } });
    // Before, Ralph waited for the sleep to close the pipe: the run outlived this 60 s limit.
    const r = await ralph(['--max-loops', '1', '--pause', '0'], dir, fake.env, 60_000);
    expect(r.stderr).toContain('Exit reason: max_loops');
    const bg = await pidFromFile(join(fake.stateDir, 'bg.pid'));
    expect(await survivors([bg])).toEqual([]);
    expect(r.stderr).toMatch(new RegExp(`Stopped \\d+ process(es)? the agent left running: .*${bg} \\(sleep\\)`));
  });

  it('a process that escaped the tree, its session and the marker (env -i setsid) may hold the pipes: Ralph still goes on and exits', async () => {
    const dir = ralphProject();
    // setsid execs in place here (a background job is no group leader), so $! is the sleep itself.
    // Only the first call leaves one behind, so the test knows every process it must end itself.
    const fake = fakeClaude([{ stdout: inProgress, background: 'env -i setsid sleep 300 & echo $! > "$FAKE_CLAUDE_STATE/escaped.pid"' }], {
      default: { stdout: inProgress },
    });
    const r = await ralph(['--max-loops', '2', '--pause', '0'], dir, fake.env, 60_000);
    // Nothing can find it by design; the test ends it itself.
    track(await pidFromFile(join(fake.stateDir, 'escaped.pid')));
    expect(r.stderr).toContain('Exit reason: max_loops');
    expect(fake.calls()).toHaveLength(2);
  });

  it('ends setsid children and SIGTERM-ignoring ones after a normal exit, and leaves a look-alike it did not start alone', async () => {
    const dir = ralphProject();
    const state = (name: string): string => `$FAKE_CLAUDE_STATE/${name}`;
    // The same command line as the agent's children, started by the test: it must survive.
    const lookalike = track(spawn('sh', ['-c', "trap '' TERM; exec sleep 300"], { stdio: 'ignore', detached: true }).pid as number);
    const fake = fakeClaude([], {
      default: {
        stdout: inProgress,
        shell: `setsid sh -c '${stubborn(state('setsid.pid'))}' >/dev/null 2>&1 & sh -c '${stubborn(state('plain.pid'))}' >/dev/null 2>&1 &`,
      },
    });
    const r = await ralph(['--max-loops', '1', '--pause', '0'], dir, fake.env, 60_000);
    expect(r.stderr).toContain('Exit reason: max_loops');
    const pids = [await pidFromFile(join(fake.stateDir, 'setsid.pid')), await pidFromFile(join(fake.stateDir, 'plain.pid'))];
    expect(await survivors(pids)).toEqual([]);
    expect(isRunning(lookalike)).toBe(true);
    // Named by what it was when stopped: `sh` if it had not yet exec'd `sleep`.
    for (const pid of pids) expect(r.stderr).toMatch(new RegExp(`Stopped \\d+ process(es)? the agent left running: .*\\b${pid} \\((sleep|sh)\\)`));
  });

  it('on Ctrl+C ends the agent and its setsid, SIGTERM-ignoring child, then exits 130', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([], {
      default: {
        stdout: inProgress,
        sleep_ms: 120_000,
        ignore_term: true,
        shell: `setsid sh -c '${stubborn('$FAKE_CLAUDE_STATE/child.pid')}' >/dev/null 2>&1 &`,
      },
    });
    const run = runCli('ralph', ['--max-loops', '1', '--pause', '0'], dir, fake.env, 60_000);
    const child = await pidFromFile(join(fake.stateDir, 'child.pid'));
    const agent = track(fake.calls()[0]?.pid as number);
    run.kill('SIGINT');
    const r = await run;
    expect(r.exitCode).toBe(130);
    expect(await survivors([agent, child])).toEqual([]);
  });
});
