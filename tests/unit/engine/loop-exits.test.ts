import { describe, expect, it } from 'vitest';
import { LOCK_LOST } from '../../../src/core/exit-reasons.js';
import { done, loopHarness, statusBlock, working } from './support/loop-harness.js';

describe('runLoop: why the loop ends', () => {
  it('max_loops: records one iteration after another, then the exit (exit 7)', async () => {
    const h = loopHarness({ responses: [working(), working(), working()], config: { maxLoops: 2 } });
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'max_loops', exitCode: 7, loops: 2 });
    expect(h.recorded()).toEqual([
      'loop.start',
      'iteration.start',
      'agent.result',
      'analysis',
      'iteration.end',
      'iteration.start',
      'agent.result',
      'analysis',
      'iteration.end',
      'loop.exit',
    ]);
    expect(h.of('loop.stop')).toEqual([expect.objectContaining({ reason: 'max_loops', detail: 'reached --max-loops 2' })]);
  });

  it('project_complete: the agent says EXIT_SIGNAL: true after doing work (exit 0)', async () => {
    const h = loopHarness({ responses: [working(), done(), done()] });
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'project_complete', exitCode: 0 });
    expect(h.store.sessionResets).toEqual(['project_complete']);
  });
});

describe('runLoop: limits and stops', () => {
  it('max_cost: stops once the run has cost the limit (exit 7)', async () => {
    const h = loopHarness({
      responses: [working({ cost_usd: 0.4 }), working({ cost_usd: 0.4 }), working({ cost_usd: 0.4 }), working()],
      config: { maxCostUsd: 1 },
    });
    expect(await h.run()).toMatchObject({ reason: 'max_cost', exitCode: 7, loops: 3, message: 'spent $1.2000 (limit $1)' });
  });

  it('max_runtime: stops once the run has lasted the limit (exit 7)', async () => {
    const h = loopHarness({
      responses: [working({ delay_ms: 20 * 60_000 }), working({ delay_ms: 20 * 60_000 }), working()],
      config: { maxRuntimeMinutes: 30, timeoutMinutes: 60 },
    });
    expect(await h.run()).toMatchObject({ reason: 'max_runtime', exitCode: 7, loops: 2 });
  });

  it('max tokens per hour: waits until the hour has room for more tokens', async () => {
    const h = loopHarness({ responses: [working({ input_tokens: 900, output_tokens: 200 }), working()], config: { maxTokensPerHour: 1000, maxLoops: 2 } });
    expect((await h.run()).reason).toBe('max_loops');
    expect(h.of('wait.start')[0]?.wait).toMatchObject({ reason: 'rate_limit', message: 'Rate limit reached (tokens: 1100/1000)' });
  });

  it('integrity_failure: a required file is missing (exit 1)', async () => {
    const h = loopHarness({ responses: [working()] });
    h.store.missing = ['.ralph/PROMPT.md'];
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'integrity_failure', exitCode: 1, loops: 0 });
    expect(result.message).toContain('Missing files: .ralph/PROMPT.md');
    expect(h.store.sessionResets).toEqual(['integrity_failure']);
  });

  it('stop_requested: `ralph --stop` ends the loop before the next call (exit 0)', async () => {
    const h = loopHarness({ responses: [working(), working()] });
    h.probe.measure = async () => {
      h.store.stop = true;
      return { method: 'git', filesChanged: 1, changedFiles: ['a'], committed: false };
    };
    expect(await h.run()).toMatchObject({ reason: 'stop_requested', exitCode: 0, loops: 1 });
  });

  it('a stop request left by an earlier run is cleared at the start', async () => {
    const h = loopHarness({ responses: [working()], config: { maxLoops: 1 } });
    h.store.stop = true;
    expect((await h.run()).reason).toBe('max_loops');
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ])('interrupted by %s during the call: exit %i, the session forgotten', async (signal, exitCode) => {
    const h = loopHarness({ responses: [working({ delay_ms: 60_000 })] });
    h.clock.onSleep = () => h.abort.abort(signal);
    expect(await h.run()).toMatchObject({ reason: 'interrupted', exitCode });
    expect(h.of('loop.stop')[0]).toMatchObject({ reason: 'interrupted', signal });
    expect(h.of('iteration.end')[0]?.outcome).toBe('interrupted');
    expect(h.store.sessionResets).toEqual(['manual_interrupt']);
  });

  it('interrupted during the pause between iterations', async () => {
    const h = loopHarness({ responses: [working(), working()], config: { pauseSeconds: 10 } });
    h.clock.onSleep = (ms) => {
      if (ms === 10_000) h.abort.abort('SIGINT');
    };
    expect(await h.run()).toMatchObject({ reason: 'interrupted', loops: 1 });
  });

  it('lock_lost: the interrupt that says the project lock was lost (exit 1)', async () => {
    const h = loopHarness({ responses: [working({ delay_ms: 60_000 })] });
    h.clock.onSleep = () => h.abort.abort(LOCK_LOST);
    expect(await h.run()).toMatchObject({ reason: 'lock_lost', exitCode: 1 });
  });

  it('pauses between iterations for the configured seconds', async () => {
    const h = loopHarness({ responses: [working(), working()], config: { pauseSeconds: 7, maxLoops: 2 } });
    await h.run();
    expect(h.clock.sleeps).toEqual([7_000, 7_000]);
  });

  it('test_saturation: three iterations in a row that only ran tests (exit 0)', async () => {
    const testing = { output: `Ran the tests again.\n${statusBlock({ WORK_TYPE: 'TESTING' })}` };
    const h = loopHarness({ responses: [working(), testing, testing, testing, testing] });
    expect(await h.run()).toMatchObject({ reason: 'test_saturation', exitCode: 0 });
  });

  it('permission_denied: denied tools halt the loop with the ALLOWED_TOOLS line that would allow them (exit 4)', async () => {
    const h = loopHarness({ responses: [denied('docker build .')] });
    expect(await h.run()).toMatchObject({ reason: 'permission_denied', exitCode: 4 });
    const halt = h.of('loop.stop')[0]?.permissionHalt;
    expect(halt?.denied).toEqual(['Bash(docker build .)']);
    expect(halt?.allowedLine).toMatch(/^ALLOWED_TOOLS=".*Bash\(docker/);
    expect(h.store.sessionResets).toEqual(['permission_denied']);
  });
});

describe('runLoop: the circuit breaker', () => {
  it('no progress: CLOSED → HALF_OPEN → OPEN, the halt shown, exit 3', async () => {
    const h = loopHarness({ responses: [working(), working(), working(), working()] });
    h.probe.otherwise = { filesChanged: 0 };
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'circuit_breaker_open', exitCode: 3, loops: 3 });
    expect(h.of('circuit.transition').map((e) => `${e.transition.from}→${e.transition.to}`)).toEqual(['CLOSED→HALF_OPEN', 'HALF_OPEN→OPEN']);
    expect(h.of('circuit.halt')).toHaveLength(1);
    expect(h.store.history).toHaveLength(2);
    expect(h.store.sessionResets).toEqual(['circuit_breaker_open']);
  });

  it('half-open → closed: progress after a quiet spell recovers', async () => {
    const h = loopHarness({ responses: [working(), working(), working(), working()], config: { maxLoops: 4 } });
    h.probe.changes = [{ filesChanged: 0 }, { filesChanged: 0 }, { filesChanged: 2, changedFiles: ['a', 'b'] }];
    expect((await h.run()).reason).toBe('max_loops');
    expect(h.of('circuit.transition').map((e) => e.transition.to)).toEqual(['HALF_OPEN', 'CLOSED']);
  });

  it('the same error again and again opens the circuit', async () => {
    const failing = { output: 'Error: ENOENT: no such file, open config.json', exit_code: 1 };
    const h = loopHarness({ responses: Array.from({ length: 8 }, () => failing), config: { cbSameErrorThreshold: 3 } });
    h.probe.otherwise = { filesChanged: 0 };
    const result = await h.run();
    expect(result.reason).toBe('circuit_breaker_open');
    expect(h.of('circuit.transition').at(-1)?.transition.to).toBe('OPEN');
  });

  it('permission denials reaching the breaker threshold open the circuit, which outranks the permission halt', async () => {
    const h = loopHarness({ responses: [denied('docker build .')], config: { cbPermissionDenialThreshold: 1 } });
    expect(await h.run()).toMatchObject({ reason: 'circuit_breaker_open', exitCode: 3 });
  });

  it('an open circuit stops the next run before any call, with the halt screen (exit 3)', async () => {
    const first = loopHarness({ responses: [working(), working(), working()] });
    first.probe.otherwise = { filesChanged: 0 };
    await first.run();
    const second = loopHarness({ store: first.store, clock: first.clock, responses: [working()] });
    expect(await second.run()).toMatchObject({ reason: 'circuit_breaker_open', exitCode: 3, loops: 0 });
    expect(second.of('circuit.halt')).toHaveLength(1);
  });

  it('cooldown: an open circuit is retried half-open once the cooldown has passed', async () => {
    const first = loopHarness({ responses: [working(), working(), working()] });
    first.probe.otherwise = { filesChanged: 0 };
    await first.run();
    first.clock.time += 31 * 60_000;
    const second = loopHarness({ store: first.store, clock: first.clock, responses: [working()], config: { maxLoops: 1 } });
    expect((await second.run()).reason).toBe('max_loops');
    expect(second.of('circuit.transition')[0]?.transition).toMatchObject({ from: 'OPEN', to: 'HALF_OPEN', reason: 'Cooldown recovery: 31m elapsed' });
  });
});

/** A Claude result whose tool request was denied. */
function denied(command: string): Record<string, unknown> {
  return {
    raw: true,
    files: { 'x.txt': command },
    output: JSON.stringify({
      type: 'result',
      subtype: 'success',
      is_error: false,
      num_turns: 1,
      result: `Tried.\n${statusBlock()}`,
      session_id: 's1',
      total_cost_usd: 0.01,
      usage: { input_tokens: 1, output_tokens: 1 },
      permission_denials: [{ tool_name: 'Bash', tool_input: { command } }],
    }),
  };
}
