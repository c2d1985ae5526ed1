// Limits, waits, live output, notifications, inspection and configuration through the CLI
// (npm test builds first).
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, fakeClaude, ralph, readJson, runCli, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';

const working = `Working.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`;
const steps = (n: number, extra: Record<string, unknown> = {}): unknown[] =>
  Array.from({ length: n }, (_, i) => ({ output: working, files: { [`s${i}.txt`]: String(i) }, ...extra }));

describe('limits', () => {
  it('max_cost stops once the run has cost the limit (exit 7)', async () => {
    const dir = ralphProject();
    writeMockScript(dir, steps(5, { cost_usd: 0.4 }));
    const r = await ralph(['--backend', 'mock', '--pause', '0', '--max-cost', '1'], dir, cleanEnv());
    expect(r.exitCode).toBe(7);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'max_cost', loop_count: 3, totals: { cost_usd: 1.2000000000000002 } });
    expect(r.stderr).toContain('Exit reason: max_cost (exit code 7)');
  });

  it('a usage limit that resets after --max-runtime ends the run with usage_limit (exit 5)', async () => {
    const dir = ralphProject();
    const stream = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'claude-cli', 'stream-json-error-usage-limit.jsonl'), 'utf8').replace(
      /"resetsAt":\d+/,
      `"resetsAt":${Math.floor(Date.now() / 1000) + 7200}`,
    );
    const fake = fakeClaude([{ stdout: stream, exit: 1 }]);
    const r = await ralph(['--pause', '0', '--max-runtime', '60'], dir, fake.env);
    expect(r.exitCode).toBe(5);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'usage_limit', exit_code: 5 });
  });

  // That the next run resumes the saved wait is shown in-process (tests/unit/engine/loop-waits.test.ts).
  it('a wait shows in status.json and survives Ctrl+C', async () => {
    const dir = ralphProject();
    writeMockScript(dir, steps(3));
    const first = await ralph(['--backend', 'mock', '--pause', '0', '--calls', '1', '--max-loops', '1'], dir, cleanEnv());
    expect(first.exitCode).toBe(7);
    const waiting = runCli('ralph', ['--backend', 'mock', '--pause', '0', '--calls', '1'], dir, cleanEnv());
    const statusPath = join(dir, '.ralph', 'status.json');
    await waitFor(() => existsSync(statusPath) && (readJson(statusPath)['waiting'] as { reason?: string } | null)?.reason === 'rate_limit');
    expect(readJson(statusPath)).toMatchObject({ status: 'waiting', last_action: 'rate_limited', calls_made_this_hour: 1, max_calls_per_hour: 1 });
    waiting.kill('SIGINT');
    expect((await waiting).exitCode).toBe(130);
    expect(readJson(join(dir, '.ralph', '.rate_limit_state'))['wait']).toMatchObject({ reason: 'rate_limit' });
  });
});

describe('live output, notifications, inspection', () => {
  it('--live streams a recorded stream-json run and still analyzes its result', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([{ fixture: 'stream-json-success.jsonl', shell: 'echo hi > hello.txt' }]);
    const r = await ralph(['--live', '--show-tool-args', '--pause', '0', '--max-loops', '1'], dir, fake.env);
    expect(r.exitCode).toBe(7);
    expect(fake.calls()[0]?.argv).toEqual(expect.arrayContaining(['--output-format', 'stream-json', '--verbose', '--include-partial-messages']));
    expect(r.stderr).toMatch(/⚡ \[Write\] \S*hello\.txt/);
    expect(r.stderr).toContain('⚡ [Bash] git status --short');
    const live = readFileSync(join(dir, '.ralph', 'live.log'), 'utf8');
    expect(live).toContain('=== Loop #1');
    expect(live).toContain('Created hello.txt and checked git status.');
    expect(readJson(join(dir, '.ralph', '.response_analysis'))).toMatchObject({ analysis: { status: 'IN_PROGRESS', exit_signal: false } });
  });

  it('--live records the session id from the init event while the first call still runs', async () => {
    const dir = ralphProject();
    const stream = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'claude-cli', 'stream-json-success.jsonl'), 'utf8');
    const init = `${stream.split('\n', 1)[0]}\n`;
    // The agent is still "working" while it looks at what a watcher would see.
    const look =
      'for i in $(seq 1 200); do grep -q 280df34f-c3ad-4e13-8b54-00f4d7cd8111 .ralph/status.json 2>/dev/null && { echo seen > seen.txt; exit 0; }; sleep 0.05; done; echo unseen > seen.txt';
    const fake = fakeClaude([{ stdout_first: init, shell: look, stdout: stream.slice(init.length) }]);
    const r = await ralph(['--live', '--pause', '0', '--max-loops', '1'], dir, fake.env);
    expect(r.exitCode).toBe(7);
    expect(readFileSync(join(dir, 'seen.txt'), 'utf8').trim()).toBe('seen');
  });

  it('--notify notifies once on completion, not per iteration', async () => {
    const dir = ralphProject();
    const bin = tempDir('fake-notify-');
    const log = join(bin, 'calls.log');
    writeFileSync(join(bin, 'notify-send'), `#!/bin/sh\necho "$@" >> "${log}"\n`);
    chmodSync(join(bin, 'notify-send'), 0o755);
    writeMockScript(dir, [
      { output: working, files: { 'a.txt': '1' } },
      { output: `Done.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`, files: { 'b.txt': '2' } },
      { output: `Done.\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}` },
    ]);
    const env = cleanEnv();
    const r = await ralph(['--backend', 'mock', '--pause', '0', '--notify'], dir, { ...env, PATH: `${bin}:${env['PATH']}` });
    expect(r.exitCode).toBe(0);
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toContain('Ralph: work complete');
  });

  it('ralph --inspect and ralph-stats read what the run recorded', async () => {
    const dir = ralphProject();
    writeMockScript(dir, steps(2, { cost_usd: 0.25, input_tokens: 100, output_tokens: 10 }));
    await ralph(['--backend', 'mock', '--pause', '0', '--max-loops', '2'], dir, cleanEnv());
    const timeline = JSON.parse((await ralph(['--inspect', '--format', 'timeline'], dir, cleanEnv())).stdout) as {
      timeline: Array<{ iteration: number; events: string[] }>;
    };
    expect(timeline.timeline.map((t) => t.iteration)).toEqual([1, 2]);
    expect(timeline.timeline[0]?.events).toEqual(expect.arrayContaining(['iteration.start', 'agent.result', 'analysis', 'iteration.end']));
    const filtered = JSON.parse(
      (await ralph(['--inspect', '--format', 'json', '--topic', 'iteration.*', '--after-iteration', '1'], dir, cleanEnv())).stdout,
    ) as { records: Array<{ event: string }>; total_matched: number };
    expect(filtered.records.map((r) => r.event)).toEqual(['iteration.start', 'iteration.end']);
    const stats = JSON.parse((await runCli('ralph-stats', ['--json'], dir, cleanEnv())).stdout as string) as Record<string, unknown>;
    expect(stats).toMatchObject({ total_loops: 2, successful: 2 });
    expect(JSON.stringify(stats)).toContain('max_loops');
  });
});

describe('configuration and controls', () => {
  it('--config --json shows each value with its source: flag > environment > .ralphrc > default', async () => {
    const dir = ralphProject({ ralphrc: 'MAX_CALLS_PER_HOUR=50\nCLAUDE_TIMEOUT_MINUTES=20\nexport SESSION_EXPIRY_HOURS="12"\n' });
    const r = await ralph(['--config', '--json', '--calls', '7'], dir, cleanEnv({ CLAUDE_TIMEOUT_MINUTES: '30' }));
    const doc = JSON.parse(r.stdout) as Record<string, { value: unknown; source: string; where?: string }>;
    expect(doc['MAX_CALLS_PER_HOUR']).toEqual({ value: 7, source: 'flag', where: '--calls' });
    expect(doc['CLAUDE_TIMEOUT_MINUTES']).toEqual({ value: 30, source: 'env', where: 'CLAUDE_TIMEOUT_MINUTES' });
    expect(doc['SESSION_EXPIRY_HOURS']).toEqual({ value: 12, source: 'ralphrc', where: '.ralphrc:3' });
    expect(doc['CB_COOLDOWN_MINUTES']).toEqual({ value: 30, source: 'default' });
  });

  it('a bad .ralphrc line stops the loop before anything runs, naming file, line, key and value (exit 2)', async () => {
    const dir = ralphProject({ ralphrc: '# settings\nMAX_CALLS_PER_HOUR=lots\nFOO=$(rm -rf /)\n' });
    const r = await ralph(['--backend', 'mock'], dir, cleanEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('.ralphrc:2: MAX_CALLS_PER_HOUR="lots" is invalid; expected a whole number from 1 to 100000');
    expect(r.stderr).toContain('.ralphrc:3: FOO: command substitution');
    expect(existsSync(join(dir, '.ralph', 'status.json'))).toBe(false);
  });

  it('a .ralphrc of megabytes, or a setting of more than 64 KB, is refused at once with its size and what to do (exit 2)', async () => {
    const huge = ralphProject({ ralphrc: `ALLOWED_TOOLS="${'Bash(x),'.repeat(2_500_000)}Read"\n` });
    for (const args of [['--config'], ['--backend', 'mock']]) {
      const r = await ralph(args, huge, cleanEnv());
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('.ralphrc is 19.1 MB; a settings file may be at most 1024 KB, so it was not read.');
      expect(r.stderr).toContain('Keep only KEY=value settings in .ralphrc');
    }
    const long = ralphProject({ ralphrc: `# settings\nALLOWED_TOOLS="${'Bash(x),'.repeat(10_000)}Read"\n` });
    const r = await ralph(['--backend', 'mock'], long, cleanEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('.ralphrc:2: ALLOWED_TOOLS: the value is longer than 65536 characters, the most a setting may hold');
    expect(existsSync(join(long, '.ralph', 'status.json'))).toBe(false);
  });

  it('--timeout outside 1-120 is a usage error (exit 2)', async () => {
    for (const value of ['0', '121', 'abc']) {
      const r = await ralph(['--timeout', value], ralphProject(), cleanEnv());
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('a whole number from 1 to 120 (minutes)');
    }
  });

  it('--reset-session forgets the Claude session and records why', async () => {
    const dir = ralphProject();
    writeFileSync(join(dir, '.ralph', '.claude_session_id'), JSON.stringify({ session_id: 'abc', timestamp: new Date().toISOString() }));
    const r = await ralph(['--reset-session'], dir, cleanEnv());
    expect(r.stdout).toContain('Session state reset successfully');
    expect(existsSync(join(dir, '.ralph', '.claude_session_id'))).toBe(false);
    expect(readJson(join(dir, '.ralph', '.ralph_session'))['reset_reason']).toBe('manual_reset_flag');
    const history = readJson<Array<Record<string, unknown>>>(join(dir, '.ralph', '.ralph_session_history'));
    expect(history.at(-1)).toMatchObject({ from_state: 'active', to_state: 'reset', reason: 'manual_reset_flag' });
  });

  it('an unknown flag names the flag (exit 2); --help documents the exit codes', async () => {
    const bad = await ralph(['--frobnicate'], ralphProject(), cleanEnv());
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("unknown option '--frobnicate'");
    const help = await ralph(['--help'], ralphProject(), cleanEnv());
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/\n  7 +a limit reached/);
    expect(help.stdout).toContain('--verify <command>');
  });
});
