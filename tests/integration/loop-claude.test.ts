// Runs the built `ralph` (npm test builds first) against tests/fixtures/bin/claude.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { isRunning } from '../helpers/processes.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { ralphPaths } from '../../src/state/paths.js';
import { fakeClaude, ralph, readJson, readJsonLines, resultJson, runCli, statusBlock } from '../helpers/run-cli.js';
import { waitFor } from '../helpers/wait-for.js';

const inProgress = resultJson(`Worked.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`);

describe('ralph against a fake claude', () => {
  it('builds the documented argv, closes stdin, and resumes the session only on the 2nd call', async () => {
    const dir = ralphProject({ prompt: 'Do the work; $HOME and `backticks` stay literal.\n' });
    const fake = fakeClaude([
      { fixture: 'json-resume-first.json', shell: 'echo a > a.txt' },
      { fixture: 'json-resume-second.json', shell: 'echo b > b.txt' },
    ]);
    const r = await ralph(['--max-loops', '2', '--pause', '0', '--allowed-tools', 'Write,Read,Bash(git commit *)'], dir, fake.env);
    expect(r.stderr).toContain('Exit reason: max_loops');
    expect(r.exitCode).toBe(7);
    const [first, second] = fake.calls();
    expect(first?.stdin_closed).toBe(true);
    expect(first?.argv).toEqual([
      '--output-format',
      'json',
      '--allowedTools',
      'Write',
      'Read',
      'Bash(git commit *)',
      '--append-system-prompt',
      expect.stringContaining('Loop #1.'),
      '-p',
      'Do the work; $HOME and `backticks` stay literal.\n',
    ]);
    expect(first?.argv).not.toContain('--resume');
    const resumeAt = second?.argv.indexOf('--resume') ?? -1;
    expect(second?.argv[resumeAt + 1]).toBe('20cd9689-d85c-4306-902a-6815713bd90e');
    expect(second?.argv).toContain('--append-system-prompt');
    expect(readJson(join(dir, '.ralph', '.claude_session_id'))['session_id']).toBe('20cd9689-d85c-4306-902a-6815713bd90e');
  });

  it('passes --model and --effort when set and honours --no-continue', async () => {
    const dir = ralphProject({ ralphrc: 'CLAUDE_MODEL=opus\nCLAUDE_EFFORT="high"\n' });
    const fake = fakeClaude([], { default: { fixture: 'json-resume-first.json', shell: 'date +%N >> work.txt' } });
    const r = await ralph(['--max-loops', '2', '--pause', '0', '--no-continue'], dir, fake.env);
    expect(r.exitCode).toBe(7);
    for (const call of fake.calls()) {
      expect(call.argv.slice(0, 4)).toEqual(['--model', 'opus', '--effort', 'high']);
      expect(call.argv).not.toContain('--resume');
    }
  });

  it('writes status, progress, logs, metrics and the session recording', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([{ fixture: 'json-success-tool-use.json', shell: 'echo hi > hello.txt' }]);
    const r = await ralph(['--max-loops', '1', '--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(7);
    const status = readJson(join(dir, '.ralph', 'status.json'));
    expect(status).toMatchObject({
      loop_count: 1,
      calls_made_this_hour: 1,
      max_calls_per_hour: 100,
      status: 'stopped',
      exit_reason: 'max_loops',
      exit_code: 7,
      backend: 'claude',
    });
    expect(status['totals']).toMatchObject({ cost_usd: 0.031335, input_tokens: 5367, output_tokens: 180, num_turns: 3, calls: 1 });
    expect(readJson(join(dir, '.ralph', 'progress.json'))).toMatchObject({ status: 'completed', loop: 1 });
    const metrics = readJsonLines(join(dir, '.ralph', 'logs', 'metrics.jsonl'));
    expect(metrics[0]).toMatchObject({
      type: 'iteration',
      loop: 1,
      success: true,
      calls: 1,
      cost_usd: 0.031335,
      num_turns: 3,
      files_changed: 1,
      exit_signal: false,
    });
    expect(metrics[1]).toMatchObject({ type: 'run', exit_reason: 'max_loops', exit_code: 7, loops: 1 });
    const events = readJsonLines(join(dir, '.ralph', 'logs', 'session.jsonl')).map((e) => e['event']);
    expect(events).toEqual(['loop.start', 'iteration.start', 'agent.result', 'analysis', 'iteration.end', 'loop.exit']);
    const logs = readdirSync(join(dir, '.ralph', 'logs'));
    expect(logs.filter((f) => f.startsWith('claude_output_'))).toHaveLength(1);
    expect(readFileSync(join(dir, '.ralph', 'logs', 'ralph.log'), 'utf8')).toMatch(/\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] \[LOOP\] === Starting Loop #1 ===/);
    const analysis = readJson(join(dir, '.ralph', '.response_analysis'));
    expect(analysis).toMatchObject({
      loop_number: 1,
      output_format: 'json',
      analysis: { exit_signal: false, has_progress: true, files_modified: 1, status: 'IN_PROGRESS' },
    });
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} mid-iteration stops for real: exit ${code}, no child left, state kept`, async () => {
      const dir = ralphProject();
      // The SIGINT case also proves the SIGKILL escalation: its agent ignores SIGTERM.
      const fake = fakeClaude([{ sleep_ms: 60_000, grandchild: true, ignore_term: signal === 'SIGINT' }]);
      const child = runCli('ralph', ['--pause', '0'], dir, fake.env);
      await waitFor(() => existsSync(join(fake.stateDir, 'grandchild-1.pid')));
      child.kill(signal);
      const r = await child;
      expect(r.exitCode).toBe(code);
      const agent = fake.calls()[0]?.pid as number;
      const grandchild = Number(readFileSync(join(fake.stateDir, 'grandchild-1.pid'), 'utf8'));
      await waitFor(() => !isRunning(agent) && !isRunning(grandchild));
      expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ status: 'interrupted', exit_reason: 'interrupted', exit_code: code, loop_count: 1 });
      expect(existsSync(join(dir, '.git', 'ralph', 'loop.pid'))).toBe(false);
    });
  }

  it('refuses a second loop in the same project and names the holder', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([{ sleep_ms: 60_000 }]);
    const first = runCli('ralph', ['--pause', '0'], dir, fake.env);
    await waitFor(() => fake.calls().length === 1);
    const second = await ralph(['--pause', '0'], dir, fake.env);
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`already running in this project \\(process ${first.pid}`));
    first.kill('SIGINT');
    await first;
  });

  it('recovers a stale lock left by a dead process', async () => {
    const dir = ralphProject();
    const dead = await execa('node', ['-e', 'process.stdout.write(String(process.pid))']);
    mkdirSync(join(dir, '.git', 'ralph'));
    writeFileSync(
      join(dir, '.git', 'ralph', 'loop.pid'),
      JSON.stringify({ pid: Number(dead.stdout), started_at: 'earlier', host: (await import('node:os')).hostname() }),
    );
    mkdirSync(join(dir, '.git', 'ralph', 'loop.lock'));
    const fake = fakeClaude([], { default: { stdout: inProgress } });
    const r = await ralph(['--max-loops', '1', '--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(7);
  });

  it('resets a corrupt status.json and session file with a warning', async () => {
    const dir = ralphProject();
    writeFileSync(join(dir, '.ralph', 'status.json'), '{"loop_count": 3, trunc');
    writeFileSync(join(dir, '.ralph', '.circuit_breaker_state'), 'not json at all');
    writeFileSync(join(dir, '.ralph', '.claude_session_id'), '{"session_id": ["junk"]}');
    const fake = fakeClaude([], { default: { stdout: inProgress, shell: 'date +%N >> w.txt' } });
    const r = await ralph(['--max-loops', '1', '--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(/\.circuit_breaker_state was corrupt .*reset/);
    expect(readFileSync(join(dir, '.ralph', '.circuit_breaker_state.corrupt'), 'utf8')).toBe('not json at all');
    expect(fake.calls()[0]?.argv).not.toContain('--resume');
    expect(readJson(join(dir, '.ralph', 'status.json'))['loop_count']).toBe(1);
  });

  it('says how to start when the directory is not a Ralph project', async () => {
    const { tempDir } = await import('../helpers/temp-dir.js');
    const r = await ralph([], tempDir());
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('not a Ralph project');
    for (const cmd of ['ralph-enable', 'ralph-setup', 'ralph-import']) expect(r.stderr).toContain(cmd);
  });

  it('ralph run outside a Ralph project says it creates .ralph/, and refuses outside git unless allowed', async () => {
    const { tempDir } = await import('../helpers/temp-dir.js');
    const { gitRepo } = await import('../helpers/git-repo.js');
    const task = '>>add-div :: verify:"test -f div.js"';
    const done = resultJson(`Added div.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`);

    const plain = tempDir();
    const fake = fakeClaude([], { default: { stdout: done, shell: 'echo x > div.js' } });
    const refused = await ralph(['run', task, '--pause', '0'], plain, fake.env);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('is not a git repository');
    expect(refused.stderr).toContain('git init');
    expect(refused.stderr).toContain('--allow-no-git');
    expect(existsSync(join(plain, '.ralph'))).toBe(false);
    expect(fake.calls()).toHaveLength(0);

    const allowed = await ralph(['run', task, '--allow-no-git', '--pause', '0'], plain, fake.env);
    expect(allowed.exitCode).toBe(0);
    expect(allowed.stderr).toContain(`No Ralph project here: this task's state and logs go to ${join(plain, '.ralph')} (created now)`);

    const repo = gitRepo();
    const inRepo = await ralph(['run', task, '--pause', '0'], repo, fakeClaude([], { default: { stdout: done, shell: 'echo x > div.js' } }).env);
    expect(inRepo.exitCode).toBe(0);
    expect(inRepo.stderr).toContain('No Ralph project here');
    // The second run finds its .ralph/ and says nothing about creating it.
    const again = await ralph(['run', task, '--pause', '0'], repo, fakeClaude([], { default: { stdout: done, shell: 'echo y >> div.js' } }).env);
    expect(again.stderr).not.toContain('No Ralph project here');
  });

  it("ralph run's own .ralph/ stays out of git until ralph-enable makes the folder a project", async () => {
    const { gitRepo } = await import('../helpers/git-repo.js');
    const repo = gitRepo();
    const done = resultJson(`Added div.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`);
    const run = await ralph(
      ['run', '>>add-div :: verify:"test -f div.js"', '--pause', '0'],
      repo,
      fakeClaude([], { default: { stdout: done, shell: 'echo x > div.js' } }).env,
    );
    expect(run.exitCode).toBe(0);
    const status = await execa('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repo });
    // The agent's work shows; Ralph's state does not.
    expect(status.stdout.split('\n').filter((l) => l.includes('.ralph'))).toEqual([]);
    expect(status.stdout).toContain('div.js');

    const enabled = await runCli('ralph-enable', ['--non-interactive'], repo);
    expect(enabled.exitCode).toBe(0);
    expect(existsSync(join(repo, '.ralph', '.gitignore'))).toBe(false);
    const after = await execa('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repo });
    expect(after.stdout).toContain('.ralph/PROMPT.md');
  });

  it('explains a missing or too old claude with exit code 2', async () => {
    const dir = ralphProject({ ralphrc: 'CLAUDE_CODE_CMD=claude-does-not-exist-xyz\n' });
    const missing = await ralph([], dir);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('npm install -g @anthropic-ai/claude-code');
    const old = fakeClaude([], { version: '1.0.44' });
    const refused = ralphProject();
    const tooOld = await ralph([], refused, old.env);
    expect(tooOld.exitCode).toBe(2);
    expect(tooOld.stderr).toContain('Claude Code 1.0.44 is older than 2.0.76');
    expect(old.calls()).toHaveLength(0);
    // Refused before any work: no lock taken, no run recorded, no status written.
    const paths = ralphPaths(refused);
    expect([paths.lockFile, paths.runFile, paths.status].filter((path) => existsSync(path))).toEqual([]);
  });

  it('--dry-run terminates after 3 simulated iterations without calling claude', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([]);
    const r = await ralph(['--dry-run', '--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(0);
    expect(r.stderr.match(/\[DRY RUN\] Would execute/g)).toHaveLength(3);
    expect(fake.calls()).toHaveLength(0);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'dry_run', calls_made_this_hour: 0 });
  });

  it('ralph --stop from another terminal ends the loop after its current step', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([{ sleep_ms: 1500, stdout: inProgress, shell: 'echo 1 > one.txt' }], { default: { stdout: inProgress } });
    const loop = runCli('ralph', ['--pause', '0'], dir, fake.env);
    await waitFor(() => fake.calls().length === 1);
    const stop = await ralph(['--stop'], dir);
    expect(stop.exitCode).toBe(0);
    expect(stop.stdout).toContain(`PID ${loop.pid}`);
    const r = await loop;
    expect(r.exitCode).toBe(0);
    expect(fake.calls()).toHaveLength(1);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'stop_requested', status: 'stopped' });
  });
});
