// Seed 000's fifteen scenarios, translated to the loop, plus completion gating (npm test builds first).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, writeFiles } from '../helpers/git-repo.js';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, fakeClaude, ralph, readJson, readJsonLines, resultJson, runCli, statusBlock } from '../helpers/run-cli.js';
import { waitFor } from '../helpers/wait-for.js';

const done = (text = 'Done.'): string => `${text}\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`;
const working = (text = 'Working.'): string => `${text}\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`;
const mock = (...args: string[]): string[] => ['--backend', 'mock', '--pause', '0', ...args];

function events(dir: string, name: string): Array<Record<string, unknown>> {
  return readJsonLines(join(dir, '.ralph', 'logs', 'session.jsonl'))
    .filter((e) => e['event'] === name)
    .map((e) => e['data'] as Record<string, unknown>);
}

function contextOf(call: { argv: string[] } | undefined): string {
  const argv = call?.argv ?? [];
  return argv[argv.indexOf('--append-system-prompt') + 1] ?? '';
}

describe('seed 000 scenarios in the loop', () => {
  it('1. happy path: the first verify passes, no retry', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: done(), files: { 'echo.txt': 'x' } }]);
    const r = await ralph(['run', '>>echo-test :: verify:"echo SUCCESS && exit 0"', ...mock()], dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Verify passed');
    expect(events(dir, 'verify.result')).toEqual([expect.objectContaining({ passed: true, exit_code: 0, iteration: 1 })]);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({
      exit_reason: 'project_complete',
      loop_count: 1,
      verify: { command: 'echo SUCCESS && exit 0', state: 'passing' },
    });
  });

  it('2. fails once, then passes; the failure output reaches the next call', async () => {
    // Run 0 is the check before any change (a task's gate is first tried on the untouched tree).
    const dir = ralphProject({
      files: {
        'attempt.txt': '0',
        'check-attempts.sh':
          'count=$(cat attempt.txt)\necho $((count + 1)) > attempt.txt\nif [ "$count" -lt 2 ]; then echo "FAIL src/auth.test.ts: expected 200, got 401" >&2; exit 1; fi\n',
      },
    });
    chmodSync(join(dir, 'check-attempts.sh'), 0o755);
    const fake = fakeClaude([], { default: { stdout: resultJson(done('Fixed the status code.')), shell: 'date +%N >> work.txt' } });
    const r = await ralph(['run', '>>fix-issue :: verify:"./check-attempts.sh" loop:true', '--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(0);
    expect(fake.calls()).toHaveLength(2);
    const context = contextOf(fake.calls()[1]);
    expect(context).toContain('## Shell Verification FAILED (Attempt 1/5)');
    expect(context).toContain('**Command:** `./check-attempts.sh`');
    expect(context).toContain('**Exit Code:** 1');
    expect(context).toContain('expected 200, got 401');
    expect(contextOf(fake.calls()[0])).not.toContain('Shell Verification FAILED');
  });

  it('3. always failing: five attempts, then escalation, exit 6 with the state saved', async () => {
    const dir = ralphProject();
    writeMockScript(
      dir,
      Array.from({ length: 6 }, (_, i) => ({ output: working(), files: { [`w${i}.txt`]: String(i) } })),
    );
    const r = await ralph(['run', '>>impossible-task :: verify:"exit 1" loop:true', ...mock()], dir, cleanEnv());
    expect(r.exitCode).toBe(6);
    // The person reads a short summary and the choices, not the Markdown written for the agent.
    expect(r.stderr).not.toContain('## Shell Verification FAILED');
    expect(r.stderr).toContain('Verify attempts used up: Ralph needs a decision.');
    expect(r.stderr).toContain('Attempts:  5/5, all failed');
    expect(r.stderr).toContain('Last run:  exit code 1');
    expect(r.stderr).toContain('ralph --gate-action retry|skip|abort');
    expect(events(dir, 'verify.result')).toHaveLength(5);
    // Nobody at a terminal: the default abort ends this run; the next run starts a fresh cycle.
    expect(readJson(join(dir, '.ralph', '.verify_gate'))).toMatchObject({ status: 'aborted', attempt: 5, maxAttempts: 5 });
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({
      exit_reason: 'verify_aborted',
      exit_code: 6,
      verify: { state: 'aborted', attempt: 5 },
    });

    // A gate left paused (the run ended while the question was open) must be answered before the loop runs again.
    writeFileSync(join(dir, '.ralph', '.verify_gate'), JSON.stringify({ ...readJson(join(dir, '.ralph', '.verify_gate')), status: 'escalated' }));
    const again = await ralph(mock('--verify', 'exit 1'), dir, cleanEnv());
    expect(again.exitCode).toBe(6);
    expect(again.stderr).toContain('The verify gate is paused');

    // 4. retry: attempt count and previous results reset.
    const retry = await ralph(['--gate-action', 'retry'], dir, cleanEnv());
    expect(retry.exitCode).toBe(0);
    expect(readJson(join(dir, '.ralph', '.verify_gate'))).toMatchObject({ status: 'pending', attempt: 0, results: [] });

    // 6. abort: the next run starts a fresh cycle.
    writeFileSync(join(dir, '.ralph', '.verify_gate'), JSON.stringify({ ...readJson(join(dir, '.ralph', '.verify_gate')), status: 'escalated', attempt: 5 }));
    const abort = await ralph(['--gate-action', 'abort'], dir, cleanEnv());
    expect(abort.stdout).toContain('next ralph run starts a new verify cycle');
    expect(readJson(join(dir, '.ralph', '.verify_gate'))).toMatchObject({ status: 'aborted' });
  });

  it('5. skip: after escalation the loop continues without the gate', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [
      { output: working(), files: { 'a.txt': '1' } },
      { output: done(), files: { 'b.txt': '2' } },
      { output: done(), files: { 'c.txt': '3' } },
    ]);
    const r = await ralph(mock('--verify', 'exit 3', '--verify-max', '1', '--on-verify-exhausted', 'skip'), dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Verify gate: skip');
    expect(events(dir, 'verify.result')).toHaveLength(1);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'project_complete', verify: { state: 'skipped' } });
  });

  it('7. a verify command past its timeout is killed and reported as timed out', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: working(), files: { 'a.txt': '1' } }]);
    const r = await ralph(['run', '>>slow-task :: verify:"sleep 60" timeout:1', ...mock()], dir, cleanEnv());
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain('timed out after 1s');
    expect(events(dir, 'verify.result')[0]).toMatchObject({ timed_out: true, passed: false, exit_code: null });
  });

  it('8. large output: the tail reaches the agent, cut with the notice', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([], { default: { stdout: resultJson(working()), shell: 'date +%N >> work.txt' } });
    const r = await ralph(['run', '>>verbose-task :: verify:"seq 1 10000; exit 1" max:2 loop:true', '--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(6);
    const context = contextOf(fake.calls()[1]);
    expect(context).toContain('10000');
    expect(context).toMatch(/\[\.\.\.truncated, showing last \d+ chars\.\.\.\]/);
    expect(context).not.toContain('\n1\n2\n3\n');
  });

  it('9. command not found is said plainly', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: working(), files: { 'a.txt': '1' } }]);
    const r = await ralph(['run', '>>task :: verify:"nonexistent_command_xyz"', ...mock()], dir, cleanEnv());
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain('exit code 127');
    expect(r.stderr).toContain('command not found: nonexistent_command_xyz');
  });

  it('10. secrets never reach the verify command; PATH, HOME and --verify-env do', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: done(), files: { 'a.txt': '1' } }]);
    const check =
      'test -z "$GITHUB_TOKEN$AWS_SECRET_ACCESS_KEY$ANTHROPIC_API_KEY$MY_SERVICE_TOKEN" && test -n "$PATH" && test -n "$HOME" && test "$CUSTOM" = ok';
    const env = cleanEnv({ GITHUB_TOKEN: 'ghp_secret123', AWS_SECRET_ACCESS_KEY: 'secret-key', ANTHROPIC_API_KEY: 'sk-ant-x', MY_SERVICE_TOKEN: 't' });
    const r = await ralph(['run', `>>task :: verify:'${check}'`, ...mock('--verify-env', 'CUSTOM=ok')], dir, env);
    expect(r.exitCode).toBe(0);
    expect(events(dir, 'verify.result')[0]).toMatchObject({ passed: true });
  });

  it('11. checkpoint success path: the checkpoint is dropped, the work stays', async () => {
    const dir = ralphProject();
    git(dir, 'stash', 'list');
    writeMockScript(dir, [{ output: done(), files: { 'src/refactored.ts': 'export const x = 1;\n' } }]);
    const r = await ralph(['run', '>>refactor :: verify:"test -f src/refactored.ts" checkpoint:true', ...mock()], dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(git(dir, 'stash', 'list')).toBe('');
    expect(readFileSync(join(dir, 'src', 'refactored.ts'), 'utf8')).toContain('x = 1');
    expect(events(dir, 'checkpoint.created')).toHaveLength(1);
    expect(events(dir, 'checkpoint.dropped')).toHaveLength(1);
  });

  it('12. rollback path: the bad changes go, the original (uncommitted) work comes back, the attempt is kept', async () => {
    const dir = ralphProject({ files: { 'app.js': 'good\n', 'stashme.txt': 'a\n' } });
    writeFiles(dir, { 'stashme.txt': 'the user stashed this\n' });
    git(dir, 'stash', 'push', '-q', '-m', 'my own stash', '--', 'stashme.txt');
    writeFiles(dir, { 'app.js': 'good, plus my uncommitted edit\n', 'scratch.txt': 'untracked notes\n' });
    writeMockScript(dir, [{ output: working(), files: { 'app.js': 'broken\n', 'scratch.txt': null, 'new-bad.js': 'oops' } }]);
    const stashBefore = git(dir, 'stash', 'list');
    const r = await ralph(['run', '>>risky-change :: verify:"grep -q good app.js" checkpoint:true rollback:true', ...mock()], dir, cleanEnv());
    expect(r.exitCode).toBe(6);
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('good, plus my uncommitted edit\n');
    expect(readFileSync(join(dir, 'scratch.txt'), 'utf8')).toBe('untracked notes\n');
    expect(existsSync(join(dir, 'new-bad.js'))).toBe(false);
    expect(git(dir, 'stash', 'list')).toBe(stashBefore);
    const attempt = events(dir, 'checkpoint.restored')[0]?.['attempt_ref'] as string;
    expect(attempt).toMatch(/^refs\/ralph\/attempts\//);
    expect(git(dir, 'show', `${attempt}:app.js`)).toBe('broken\n');
    expect(git(dir, 'show', `${attempt}:new-bad.js`)).toBe('oops');
  });

  it('13. verify and quality criteria together: both reach the agent, the shell gate decides', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([], { default: { stdout: resultJson(done()), shell: 'echo api > api.js' } });
    const r = await ralph(['run', '>>write-api :: verify:"test -f api.js" :: "follows REST conventions" :: code-quality', '--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(0);
    const context = contextOf(fake.calls()[0]);
    expect(context).toContain('TASK: write-api');
    expect(context).toContain('follows REST conventions');
    expect(context).toContain('code-quality');
  });

  it('14. working directory override', async () => {
    const dir = ralphProject({ files: { 'packages/core/package.json': '{}' } });
    writeMockScript(dir, [{ output: done(), files: { 'packages/core/x.txt': '1' } }]);
    const r = await ralph(
      ['run', '>>test-submodule :: verify:"test $(basename $(pwd)) = core && test -f x.txt" workingDir:"./packages/core"', ...mock()],
      dir,
      cleanEnv(),
    );
    expect(r.exitCode).toBe(0);
  });

  it('15. loop mode: continues until the command passes, context building up', async () => {
    const dir = ralphProject();
    const fake = fakeClaude(
      [
        { stdout: resultJson(working('first try')), shell: 'echo 1 > one.txt' },
        { stdout: resultJson(working('second try')), shell: 'echo 2 > two.txt' },
        { stdout: resultJson(done('third try')), shell: 'echo fixed > fixed.txt' },
      ],
      {},
    );
    const r = await ralph(['run', '>>fix-all-tests :: verify:"test -f fixed.txt" loop:true max:10', '--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(0);
    expect(fake.calls()).toHaveLength(3);
    expect(contextOf(fake.calls()[2])).toContain('(Attempt 2/10)');
    expect(events(dir, 'verify.result').map((v) => v['passed'])).toEqual([false, false, true]);
  });
});

describe('task mode tells the truth about a command that already passes', () => {
  it('EXIT_SIGNAL: false and no change keep going, although the verify command passes', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([], { default: { stdout: resultJson(working('Looked around; nothing changed yet.')) } });
    const r = await ralph(['run', '>>add-div :: verify:"true"', '--pause', '0', '--max-loops', '2'], dir, fake.env);
    expect(fake.calls()).toHaveLength(2);
    expect(r.exitCode).toBe(7);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'max_loops' });
    expect(r.stderr).toContain('the agent said EXIT_SIGNAL: false: the loop continues');
    expect(r.stderr.match(/already passes before any change: this gate cannot tell whether the task is done/g)).toHaveLength(1);
  });

  it('EXIT_SIGNAL: true without any change is no completion either', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([], { default: { stdout: resultJson(done('All done.')) } });
    const r = await ralph(['run', '>>add-div :: verify:"true"', '--pause', '0', '--max-loops', '2'], dir, fake.env);
    expect(fake.calls()).toHaveLength(2);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain('nothing has changed in this run yet');
  });

  it('work, then EXIT_SIGNAL: true with the command passing, completes', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([
      { stdout: resultJson(working('Added div.')), shell: 'echo "export const div = (a, b) => a / b;" > div.js' },
      { stdout: resultJson(done('div() is done and tested.')) },
    ]);
    const r = await ralph(['run', '>>add-div :: verify:"test -f div.js"', '--pause', '0', '--max-loops', '4'], dir, fake.env);
    expect(r.exitCode).toBe(0);
    // A command that fails before the work can tell: no warning.
    expect(r.stderr).not.toContain('already passes before any change');
    expect(fake.calls()).toHaveLength(2);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'project_complete' });
  });
});

describe('each loop ends with its real outcome', () => {
  it('a failed verify is no success: not in the log line, not in the metrics, not in ralph-stats', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: working(), files: { 'a.txt': '1' } }]);
    const r = await ralph(['--verify', 'exit 1', ...mock('--max-loops', '1')], dir, cleanEnv());
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(/Loop #1 ended: verify failed(, rolled back)? \(/);
    expect(r.stderr).not.toContain('Completed Loop #1 (success');
    const iteration = readJsonLines(join(dir, '.ralph', 'logs', 'metrics.jsonl')).find((m) => m['type'] === 'iteration');
    expect(iteration).toMatchObject({ success: false, outcome: 'success', result: expect.stringContaining('verify failed') });
    const stats = JSON.parse((await runCli('ralph-stats', ['--json'], dir, cleanEnv())).stdout as string) as Record<string, unknown>;
    expect(stats).toMatchObject({ total_loops: 1, successful: 0 });
  });

  it('iterations that tripped the breaker are not counted as successful', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([], { default: { stdout: resultJson(working('Thinking about it.')) } });
    const r = await ralph(['--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/Loop #\d+ ended: no progress, circuit breaker opened/);
    expect(r.stderr).not.toMatch(/Completed Loop #\d+ \(success/);
    const stats = JSON.parse((await runCli('ralph-stats', ['--json'], dir, cleanEnv())).stdout as string) as Record<string, unknown>;
    expect(stats['successful']).toBe(0);
  });
});

describe('completion is gated by the verify command (spec §5)', () => {
  it('EXIT_SIGNAL: true is refused while verify fails, accepted once it passes', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [
      { output: done('claims done'), files: { 'a.txt': '1' } },
      { output: done('claims done again'), files: { 'b.txt': '2' } },
      { output: done('really done'), files: { 'ok.txt': 'ok' } },
    ]);
    const r = await ralph(mock('--verify', 'test -f ok.txt'), dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('project_complete refused: the verify command fails on the current tree');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'project_complete', loop_count: 3 });
  });

  it('safety_circuit_breaker after five refused completion claims', async () => {
    const dir = ralphProject();
    writeMockScript(
      dir,
      Array.from({ length: 6 }, (_, i) => ({ output: done(), files: { [`f${i}.txt`]: String(i) } })),
    );
    const r = await ralph(mock('--verify', 'false', '--verify-max', '20'), dir, cleanEnv());
    expect(r.exitCode).toBe(3);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'safety_circuit_breaker', loop_count: 5 });
  });

  it('a fully checked plan still needs a passing verify before plan_complete', async () => {
    const dir = ralphProject({ fixPlan: '- [x] done\n' });
    // No EXIT_SIGNAL: an explicit false would keep the loop going even with the plan checked.
    writeMockScript(dir, [{ output: `fixing the tests\n${statusBlock({ STATUS: 'IN_PROGRESS' })}`, files: { 'ok.txt': 'ok' } }]);
    const r = await ralph(mock('--verify', 'test -f ok.txt'), dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Every task in fix_plan.md is checked, but the verify command fails');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'plan_complete', loop_count: 1 });
    // Before the call (fail), after it (pass); the unchanged tree is not verified a third time.
    expect(events(dir, 'verify.result').map((v) => v['passed'])).toEqual([false, true]);
  });

  it('outside git: a clear warning, the gate still runs, no checkpoint', async () => {
    const dir = ralphProject({ git: false });
    writeMockScript(dir, [{ output: done(), files: { 'ok.txt': 'ok' } }]);
    const r = await ralph(['run', '>>task :: verify:"test -f ok.txt" checkpoint:true', ...mock()], dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('not a git repository');
    expect(events(dir, 'checkpoint.created')).toHaveLength(0);
  });

  it('a task spec with an unknown option names the token (exit 2)', async () => {
    const r = await ralph(['run', '>>task :: verify:"npm test" retries:3'], ralphProject(), cleanEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('retries:3');
  });
});

describe('interrupting the gate', () => {
  it('Ctrl+C during a verify run stops it at once and does not count as an attempt', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: working(), files: { 'a.txt': '1' } }]);
    // The verify command would run past the test's own limit: only the stop ends it.
    const loop = runCli('ralph', mock('--verify', 'touch verifying && sleep 300'), dir, cleanEnv());
    await waitFor(() => existsSync(join(dir, 'verifying')), 'the verify command to start');
    loop.kill('SIGINT');
    const r = await loop;
    expect(r.exitCode).toBe(130);
    expect(readJson(join(dir, '.ralph', '.verify_gate'))).toMatchObject({ attempt: 0, results: [] });
    expect(events(dir, 'verify.result')).toHaveLength(0);
  });
});

describe('ralph --checkpoints and --restore', () => {
  it('lists checkpoints and restores one after checkpointing the present', async () => {
    const dir = ralphProject({ files: { 'v.txt': 'v1\n' } });
    writeMockScript(dir, [
      { output: working(), files: { 'v.txt': 'v2\n' } },
      { output: working(), files: { 'v.txt': 'v3\n' } },
    ]);
    const run = await ralph(mock('--backup', '--max-loops', '2'), dir, cleanEnv());
    expect(run.exitCode).toBe(7);
    const list = JSON.parse((await ralph(['--checkpoints', '--json'], dir, cleanEnv())).stdout) as { checkpoints: Array<{ id: string; loop: number }> };
    expect(list.checkpoints.map((c) => c.loop)).toEqual([1, 2]);
    const first = list.checkpoints[0]?.id as string;
    const restore = await ralph(['--restore', first], dir, cleanEnv());
    expect(restore.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'v.txt'), 'utf8')).toBe('v1\n');
    const safety = /ralph --restore (\S+) brings it back/.exec(restore.stdout)?.[1] as string;
    await ralph(['--restore', safety], dir, cleanEnv());
    expect(readFileSync(join(dir, 'v.txt'), 'utf8')).toBe('v3\n');
    // Checkpoints live under Ralph's own refs: the user's stash list stays empty.
    expect(execFileSync('git', ['stash', 'list'], { cwd: dir, encoding: 'utf8' })).toBe('');
    expect(git(dir, 'for-each-ref', '--format=%(refname)', 'refs/ralph/checkpoints/')).toContain(`refs/ralph/checkpoints/${first}`);
  });

  it('--checkpoints --prune keeps the newest CHECKPOINT_KEEP checkpoints', async () => {
    const dir = ralphProject({ files: { 'v.txt': 'v1\n' }, ralphrc: 'CHECKPOINT_KEEP=1\n' });
    writeMockScript(dir, [
      { output: working(), files: { 'v.txt': 'v2\n' } },
      { output: working(), files: { 'v.txt': 'v3\n' } },
      { output: working(), files: { 'v.txt': 'v4\n' } },
    ]);
    await ralph(mock('--backup', '--max-loops', '3'), dir, cleanEnv());
    const refs = (): string[] => git(dir, 'for-each-ref', '--format=%(refname)', 'refs/ralph/checkpoints/').split('\n').filter(Boolean);
    expect(refs().length).toBeGreaterThan(1);
    const newest = refs().sort().pop();
    const pruned = await ralph(['--checkpoints', '--prune'], dir, cleanEnv());
    expect(pruned.exitCode).toBe(0);
    expect(pruned.stdout).toMatch(/Deleted \d+ checkpoints?, kept the newest 1 \(CHECKPOINT_KEEP=1\)/);
    expect(refs()).toHaveLength(1);
    expect(refs()[0]).toBe(newest);
    const misuse = await ralph(['--prune'], dir, cleanEnv());
    expect(misuse.exitCode).toBe(2);
    expect(misuse.stderr).toContain('--prune goes with --checkpoints');
  });
});
