import { describe, expect, it } from 'vitest';
import { done, loopHarness, statusBlock, working } from './support/loop-harness.js';

/** A mock response that outlives a one-minute call timeout. */
const hangs = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ output: 'never printed', delay_ms: 5 * 60_000, ...extra });

describe('runLoop: what a call amounts to', () => {
  it('reads fix_plan.md once before each call and once after it, and counts the tasks it ticked', async () => {
    const h = loopHarness({
      responses: [working({ check_tasks: 1 }), working(), working({ check_tasks: 1 })],
      fixPlan: '- [ ] one\n- [ ] two\n- [ ] three\n',
      config: { maxLoops: 3 },
    });
    expect((await h.run()).reason).toBe('max_loops');
    expect(h.store.planReads).toBe(3 * 2);
    expect(h.of('iteration.end').map((e) => e.call?.progress?.tasksChecked)).toEqual([1, 0, 1]);
  });

  it('a timeout with no progress is a failed iteration, and the loop goes on', async () => {
    const h = loopHarness({ responses: [hangs(), working()], config: { timeoutMinutes: 1, maxLoops: 2 } });
    h.probe.changes = [{ filesChanged: 0 }];
    expect((await h.run()).reason).toBe('max_loops');
    expect(h.notices('call.timeout')).toEqual(['mock agent timed out after 1 min with no detectable progress']);
    expect(h.of('iteration.end').map((e) => [e.outcome, e.verdict?.success])).toEqual([
      ['timeout', false],
      ['success', true],
    ]);
    expect(h.notices('circuit.retry_next')).toEqual(['Execution failed; the next loop retries after the pause']);
  });

  it('a timeout is never taken for a usage limit, whatever the agent printed', async () => {
    const h = loopHarness({
      responses: [hangs({ output: "You've hit your 5-hour limit · resets 9pm", exit_code: 1 })],
      config: { timeoutMinutes: 1, maxLoops: 1 },
    });
    h.probe.changes = [{ filesChanged: 0 }];
    await h.run();
    expect(h.of('limit.usage')).toEqual([]);
    expect(h.of('iteration.end')[0]?.outcome).toBe('timeout');
  });

  it('a productive timeout (files changed) is analyzed like a finished call', async () => {
    const h = loopHarness({ responses: [hangs()], config: { timeoutMinutes: 1, maxLoops: 1 } });
    h.probe.changes = [{ filesChanged: 1, changedFiles: ['partial.txt'] }];
    await h.run();
    expect(h.notices('call.timeout')).toEqual(['mock agent timed out after 1 min but changed 1 file(s): analyzing the work (productive timeout)']);
    expect(h.recorded()).toContain('analysis');
    expect(h.of('iteration.end')[0]).toMatchObject({ outcome: 'timeout_productive', call: { progress: { filesChanged: 1 } } });
  });

  it('a failed call is reported with its output log, and a broken session is forgotten', async () => {
    const h = loopHarness({ responses: [{ output: 'Error: No conversation found with session ID abc', exit_code: 1 }, working()], config: { maxLoops: 2 } });
    await h.run();
    expect(h.notices('call.failed')).toEqual([expect.stringMatching(/^❌ mock agent call failed: .* — output: .*claude_output_1_1\.log$/)]);
    expect(h.store.sessionResets).toEqual(['api_error_is_error_true']);
    expect(h.of('agent.result').map((e) => e.outcome)).toEqual(['failed', 'success']);
  });

  it('agent_failure: the mock runs out of responses, a fatal failure (exit 1)', async () => {
    const h = loopHarness({ responses: [working()] });
    expect(await h.run()).toMatchObject({ reason: 'agent_failure', exitCode: 1, message: expect.stringContaining('mock responses exhausted') });
    expect(h.of('iteration.end').at(-1)).toMatchObject({ outcome: 'failed', verdict: { success: false } });
  });

  it('agent_failure: credentials the agent cannot use stop the loop with advice (exit 1)', async () => {
    const h = loopHarness({ responses: [{ output: 'Invalid API key · Please run /login', exit_code: 1 }] });
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'agent_failure', exitCode: 1 });
    expect(result.message).toMatch(/^mock agent cannot continue: /);
  });

  it('keeps the agent session for the next call and says it resumes it', async () => {
    const h = loopHarness({ responses: [working({ session_id: 'sess-1' }), working({ session_id: 'sess-1' })], config: { maxLoops: 2 } });
    await h.run();
    expect(h.store.session).toMatchObject({ sessionId: 'sess-1', backend: 'mock' });
    expect(h.notices('session.resumed')).toEqual([expect.stringMatching(/^Resuming mock agent session: sess-1\.\.\. \(0h old\)$/)]);
    expect(h.of('status').at(-1)?.run.sessionId).toBe('sess-1');
  });

  it('an expired session is forgotten and a new one started', async () => {
    const h = loopHarness({ responses: [working()], config: { maxLoops: 1, sessionExpiryHours: 1 } });
    h.store.session = { sessionId: 'old', createdAt: h.clock.now() - 5 * 3_600_000, backend: 'mock' };
    await h.run();
    expect(h.notices('session.expired')).toEqual(['Session expired (5h old, max 1h); starting a new one']);
  });

  it('a session saved by another backend is not resumed: a new session starts and the line says why', async () => {
    const h = loopHarness({ responses: [working({ session_id: 'mock-new' })], config: { maxLoops: 1 } });
    h.store.session = { sessionId: '9f3c2a10-claude-id', createdAt: h.clock.now() - 3_600_000, backend: 'claude' };
    await h.run();
    expect(h.notices('session.resumed')).toEqual([]);
    expect(h.notices('session.other_agent')).toEqual([
      'The saved session 9f3c2a10-claude-id... belongs to Claude Code, not mock agent: starting a new mock agent session',
    ]);
    expect(h.store.session).toMatchObject({ sessionId: 'mock-new', backend: 'mock' });
  });

  it('emits the call around the agent: start, running, output, end; adds tokens and cost to the totals', async () => {
    const h = loopHarness({
      responses: [working({ cost_usd: 0.25, input_tokens: 1000, output_tokens: 200 })],
      config: { maxLoops: 1, maxTokensPerHour: 100_000 },
    });
    await h.run();
    const types = h.events.map((e) => e.type).filter((t) => t.startsWith('call.'));
    expect(types[0]).toBe('call.start');
    expect(types[1]).toBe('call.running');
    expect(types.at(-1)).toBe('call.end');
    expect(h.of('call.end')[0]?.run).toMatchObject({ end: 'exited', exitCode: 0 });
    expect(h.notices('tokens.used')).toEqual(['Tokens this hour: +1200']);
    expect(h.of('loop.exit')[0]?.totals).toMatchObject({ calls: 1, cost_usd: 0.25, input_tokens: 1000, output_tokens: 200 });
  });

  it('dry run: describes the call three times without making one (exit 0)', async () => {
    const h = loopHarness({ dryRun: true });
    expect(await h.run()).toMatchObject({ reason: 'dry_run', exitCode: 0, loops: 3 });
    expect(h.of('agent.result')).toEqual([]);
    expect(h.of('iteration.end').map((e) => e.outcome)).toEqual(['dry_run', 'dry_run', 'dry_run']);
    expect(h.notices('dry_run.command')[0]).toMatch(/^\[DRY RUN\] Would execute: replay the next of 0 scripted responses/);
    expect(h.of('loop.start')[0]).toMatchObject({ dryRun: true, backend: 'mock', pid: 4242 });
  });

  it('the analysis event carries what the agent said and the progress measured; the store keeps it', async () => {
    const h = loopHarness({ responses: [{ output: `Did it.\n${statusBlock({ STATUS: 'IN_PROGRESS', WORK_TYPE: 'TESTING' })}` }], config: { maxLoops: 1 } });
    await h.run();
    const [analysis] = h.of('analysis');
    expect(analysis).toMatchObject({
      iteration: 1,
      analysis: { status: 'IN_PROGRESS', workType: 'TESTING', exitSignal: false },
      progress: { filesChanged: 1, changedFiles: ['work.txt'] },
    });
    expect(h.store.analysis).toBe(analysis?.analysis);
  });

  it("measures what a call changed as soon as it ended: git works while the loop does the call's bookkeeping", async () => {
    const h = loopHarness({ responses: [working(), working()], config: { maxLoops: 2 } });
    const order: string[] = [];
    const measure = h.probe.measure.bind(h.probe);
    h.probe.measure = async () => {
      order.push('measure started');
      const facts = await measure();
      order.push('measured');
      return facts;
    };
    h.store.pruneOutputLogs = () => void order.push('logs pruned');
    await h.run();
    expect(order).toEqual([...['measure started', 'logs pruned', 'measured'], ...['measure started', 'logs pruned', 'measured']]);
    expect(h.of('analysis').map((e) => e.progress.filesChanged)).toEqual([1, 1]);
  });

  it('a crash leaves a truthful status and a loop.exit record, and rethrows', async () => {
    const h = loopHarness({ responses: [done()] });
    h.probe.measure = async () => {
      throw new Error('disk on fire');
    };
    await expect(h.run()).rejects.toThrow('disk on fire');
    expect(h.of('status').at(-1)?.run).toMatchObject({ lastAction: 'crashed', status: 'error', exitReason: 'agent_failure' });
    expect(h.of('loop.crash')).toEqual([{ type: 'loop.crash', iterations: 1, message: 'disk on fire' }]);
    expect(h.recorded().at(-1)).toBe('loop.exit');
  });
});
