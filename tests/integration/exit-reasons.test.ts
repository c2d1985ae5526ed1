// Every exit reason of spec §5 reached through a real loop (npm test builds first).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, fakeClaude, ralph, readJson, readJsonLines, resultJson, statusBlock } from '../helpers/run-cli.js';

const block = (fields: Record<string, string>): string => statusBlock(fields);
let counter = 0;
const work = (): Record<string, string> => ({ [`src/file-${(counter += 1)}.txt`]: String(counter) });

describe('exit reasons', () => {
  it('project_complete after a second EXIT_SIGNAL: true, with the session reset', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([
      { stdout: resultJson(`Done.\n${block({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`), shell: 'echo 1 > a.txt' },
      { stdout: resultJson(`Still done.\n${block({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`) },
    ]);
    const r = await ralph(['--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain("Output format 'text'");
    expect(fake.calls()).toHaveLength(2);
    expect(r.stderr).toContain('Graceful exit triggered: project_complete');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({
      status: 'completed',
      exit_reason: 'project_complete',
      last_action: 'graceful_exit',
      exit_code: 0,
    });
    expect(readJson(join(dir, '.ralph', '.ralph_session'))['reset_reason']).toBe('project_complete');
    expect(readFileSync(join(dir, '.ralph', 'logs', 'ralph.log'), 'utf8')).toContain('Exit reason: project_complete (exit code 0)');
  });

  it('keeps going on EXIT_SIGNAL: false even with STATUS: COMPLETE (#146)', async () => {
    const dir = ralphProject();
    writeMockScript(
      dir,
      [1, 2, 3].map(() => ({
        output: `Task done, more to do.\n${block({ STATUS: 'COMPLETE', TESTS_STATUS: 'PASSING', EXIT_SIGNAL: 'false' })}`,
        files: work(),
      })),
    );
    const r = await ralph(['--backend', 'mock', '--pause', '0', '--max-loops', '3'], dir, cleanEnv());
    expect(r.exitCode).toBe(7);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'max_loops', loop_count: 3 });
    expect(r.stderr).toContain('STATUS: COMPLETE with EXIT_SIGNAL: false');
  });

  it('plan_complete before any call when every blocking task is checked', async () => {
    const dir = ralphProject({ fixPlan: '# Plan\n- [x] one\r\n- [X] two\r\n## Optional\n- [ ] nice to have\n- [2026-01-29] a dated note\n' });
    const fake = fakeClaude([]);
    const r = await ralph(['--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(0);
    expect(fake.calls()).toHaveLength(0);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'plan_complete', loop_count: 0, calls_made_this_hour: 0 });
  });

  it('plan_complete once the agent ticks the last task', async () => {
    const dir = ralphProject({ fixPlan: '- [ ] a\n- [ ] b\n' });
    writeMockScript(dir, [
      { output: `a\n${block({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`, check_tasks: 1, files: work() },
      { output: `b\n${block({ STATUS: 'IN_PROGRESS' })}`, check_tasks: 1, files: work() },
    ]);
    const r = await ralph(['--backend', 'mock', '--pause', '0'], dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'plan_complete', loop_count: 2 });
  });

  it('test_saturation after three test-only iterations', async () => {
    const dir = ralphProject();
    writeMockScript(
      dir,
      [1, 2, 3].map(() => ({ output: `Ran npm test again.\n${block({ STATUS: 'IN_PROGRESS', WORK_TYPE: 'TESTING' })}`, files: work() })),
    );
    const r = await ralph(['--backend', 'mock', '--pause', '0'], dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'test_saturation', loop_count: 3 });
    const analyses = readJsonLines(join(dir, '.ralph', 'logs', 'session.jsonl')).filter((e) => e['event'] === 'analysis');
    expect(analyses.map((a) => (a['data'] as Record<string, unknown>)['work_type'])).toEqual(['TESTING', 'TESTING', 'TESTING']);
  });

  it('test_saturation is a stagnation exit: EXIT_SIGNAL: false and no file changes still end it, before the breaker opens', async () => {
    const dir = ralphProject();
    writeMockScript(
      dir,
      [1, 2, 3, 4].map(() => ({ output: `Ran npm test again.\n${block({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false', WORK_TYPE: 'TESTING' })}` })),
    );
    const r = await ralph(['--backend', 'mock', '--pause', '0'], dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'test_saturation', loop_count: 3 });
    expect(readJson(join(dir, '.ralph', '.circuit_breaker_state'))['state']).not.toBe('OPEN');
  });

  it('completion_signals in text mode, whole words only', async () => {
    const dir = ralphProject({ ralphrc: 'CLAUDE_OUTPUT_FORMAT=text\n' });
    const fake = fakeClaude([
      { stdout: 'The refactor is incomplete; abandoned the old approach.\n', shell: 'echo 1 > a.txt' },
      { stdout: 'All tasks complete.\n', shell: 'echo 2 > b.txt' },
      { stdout: 'Everything is done and ready for review.\n' },
    ]);
    const r = await ralph(['--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(0);
    expect(fake.calls()).toHaveLength(3);
    expect(fake.calls()[0]?.argv).not.toContain('--output-format');
    expect(readJson(join(dir, '.ralph', 'status.json'))['exit_reason']).toBe('completion_signals');
    // What text mode gives up is said once, at the start.
    expect(r.stderr.match(/Output format 'text'/g)).toHaveLength(1);
    expect(r.stderr).toContain('every loop starts a new conversation and cost, token and --max-cost limits are not tracked');
  });

  it('permission_denied halts with the denied command and the exact .ralphrc line (exit 4)', async () => {
    const dir = ralphProject({ ralphrc: 'ALLOWED_TOOLS="Write,Bash(git *)"\n' });
    const fake = fakeClaude([{ fixture: 'json-permission-denied.json' }]);
    const r = await ralph(['--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('PERMISSION DENIED');
    expect(r.stderr).toContain('Bash(npm test)');
    expect(r.stderr).toContain('ALLOWED_TOOLS="Write,Bash(git *),Bash(npm *)"');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ status: 'halted', exit_reason: 'permission_denied' });
  });

  it('a denial whose base command is allowed does not halt, and a plain command is not called compound', async () => {
    const dir = ralphProject({ ralphrc: 'ALLOWED_TOOLS="Write,Bash(npm *)"\n' });
    const fake = fakeClaude([{ fixture: 'json-permission-denied.json', shell: 'echo x > x.txt' }]);
    const r = await ralph(['--pause', '0', '--max-loops', '1'], dir, fake.env);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain('Claude Code refused 1 command whose base command is already in ALLOWED_TOOLS: Bash(npm test)');
    expect(r.stderr).not.toContain('compound');
  });
});

describe('circuit breaker, rate limits and usage limits', () => {
  it('after ralph run trips the breaker, the advice starts the same task again, not the plan loop', async () => {
    const dir = ralphProject();
    writeMockScript(
      dir,
      [1, 2, 3, 4].map(() => ({ output: `Looked around.\n${block({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}` })),
    );
    const r = await ralph(['run', 'tidy the README', '--backend', 'mock', '--pause', '0'], dir, cleanEnv());
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain("Reset and restart:       ralph --reset-circuit && ralph run 'tidy the README' --backend mock --pause 0");
    expect(r.stderr).not.toMatch(/ralph --reset-circuit && ralph\n/);
  });

  it('opens the circuit after three iterations without progress (exit 3)', async () => {
    const dir = ralphProject();
    writeMockScript(
      dir,
      [1, 2, 3, 4].map(() => ({ output: `Looked around.\n${block({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}` })),
    );
    const r = await ralph(['--backend', 'mock', '--pause', '0'], dir, cleanEnv());
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('CIRCUIT BREAKER: Monitoring Mode');
    expect(r.stderr).toContain('EXECUTION HALTED');
    expect(readJson(join(dir, '.ralph', '.circuit_breaker_state'))).toMatchObject({ state: 'OPEN', consecutive_no_progress: 3, total_opens: 1 });
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ status: 'halted', exit_reason: 'circuit_breaker_open', loop_count: 3 });
    const history = readJson<Array<Record<string, unknown>>>(join(dir, '.ralph', '.circuit_breaker_history'));
    expect(history.map((h) => `${h['from_state']}>${h['to_state']}`)).toEqual(['CLOSED>HALF_OPEN', 'HALF_OPEN>OPEN']);
    // A second start is refused until the cooldown passes or the circuit is reset.
    const again = await ralph(['--backend', 'mock', '--pause', '0'], dir, cleanEnv());
    expect(again.exitCode).toBe(3);
    const reset = await ralph(['--reset-circuit'], dir, cleanEnv());
    expect(reset.stdout).toContain('Circuit breaker reset to CLOSED state');
    const status = await ralph(['--circuit-status', '--json'], dir, cleanEnv());
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'CLOSED', reason: 'Manual reset via command line' });
  });

  it('an always-failing agent opens the circuit after five failures instead of looping forever', async () => {
    const dir = ralphProject();
    // A request the API rejects (400) fails every time; a 5xx would be retried as a passing server error.
    const fake = fakeClaude([], { default: { fixture: 'json-error-invalid-request.json', exit: 1 } });
    const r = await ralph(['--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(3);
    expect(fake.calls()).toHaveLength(5);
    expect(readJson(join(dir, '.ralph', '.circuit_breaker_state'))).toMatchObject({
      state: 'OPEN',
      consecutive_failures: 5,
      reason: 'Agent call failed in 5 consecutive loops',
    });
  });

  it.each([
    ['an invalid API key', 'json-error-auth.json', 'Invalid API key · Fix external API key', 'claude /login'],
    ['a credit balance that is too low', 'json-error-credit-balance.json', 'Credit balance is too low', 'Billing'],
  ])('%s stops at the first call with agent_failure, exit 1, the message and what to do', async (_name, fixture, message, advice) => {
    const dir = ralphProject();
    const fake = fakeClaude([], { default: { fixture, exit: 1 } });
    const r = await ralph(['--pause', '0'], dir, fake.env);
    expect(r.exitCode).toBe(1);
    expect(fake.calls()).toHaveLength(1);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain(advice);
    expect(r.stderr).not.toContain('may already be complete');
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'agent_failure', exit_code: 1 });
    expect(readJson(join(dir, '.ralph', '.circuit_breaker_state'))).toMatchObject({ state: 'CLOSED' });
  });

  it('rejects an invalid --calls value with exit 2', async () => {
    const r = await ralph(['--calls', 'lots'], ralphProject(), cleanEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('invalid value for --calls: "lots"');
  });
});
