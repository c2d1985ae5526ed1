import { describe, expect, it } from 'vitest';
import { summarizeVerifyResult } from '../../../src/core/verify-gate.js';
import type { TaskMode } from '../../../src/engine/loop-deps.js';
import { done, FakeCheckpoints, loopHarness, working } from './support/loop-harness.js';

const task = (singleShot = false): TaskMode => ({ text: 'make the tests pass', criteria: [], singleShot });
const plan = (checked: boolean): string => `# Fix Plan\n\n## High Priority\n- [${checked ? 'x' : ' '}] first task\n`;

describe('runLoop: the verify gate', () => {
  it('pass: checkpoint → agent → verify passes → checkpoint dropped; a task ends complete (exit 0)', async () => {
    const h = loopHarness({ responses: [done()], gate: { results: [true] }, task: task() });
    expect(await h.run()).toMatchObject({ reason: 'project_complete', exitCode: 0, message: "the task's verify command passed (attempt 1)" });
    expect(h.recorded()).toEqual([
      'loop.start',
      'checkpoint.created',
      'iteration.start',
      'agent.result',
      'analysis',
      'verify.result',
      'checkpoint.dropped',
      'iteration.end',
      'loop.exit',
    ]);
    expect(h.of('verify.result')[0]).toMatchObject({ decision: 'passed', attempt: 1, maxAttempts: 3 });
    expect(h.checkpoints?.dropped).toEqual(['cp-1']);
  });

  it('a task whose command already passes before any change is told so, and needs work done first', async () => {
    const h = loopHarness({ responses: [done(), done()], gate: { results: [true, true, true] }, task: task() });
    h.probe.changes = [{ filesChanged: 0 }];
    await h.run();
    expect(h.notices('gate.passes_before_work')).toEqual([expect.stringContaining("The verify command 'npm test' already passes before any change")]);
    expect(h.notices('task.continues')).toEqual(['The verify command passes, but nothing has changed in this run yet: the loop continues']);
  });

  it('a task goes on while the agent says EXIT_SIGNAL: false, even when the command passes', async () => {
    const h = loopHarness({ responses: [working(), done()], gate: { results: [false, true, true] }, task: task() });
    expect((await h.run()).reason).toBe('project_complete');
    expect(h.notices('task.continues')).toEqual(['The verify command passes, but the agent said EXIT_SIGNAL: false: the loop continues']);
  });

  it('a single-shot task stops at its first failure (exit 6)', async () => {
    const h = loopHarness({ responses: [done()], gate: { results: [false, false] }, task: task(true) });
    expect(await h.run()).toMatchObject({
      reason: 'verify_aborted',
      exitCode: 6,
      message: 'the verify command failed on the single attempt (add loop:true to keep trying)',
    });
  });

  it('fail: the failure bounces back to the agent, and a later pass completes', async () => {
    const h = loopHarness({ responses: [done(), done()], gate: { results: [false, true] } });
    expect((await h.run()).reason).toBe('project_complete');
    expect(h.of('verify.result').map((e) => [e.decision, e.attempt])).toEqual([
      ['bounce', 1],
      ['passed', 2],
    ]);
    expect(h.of('iteration.end')[0]?.call?.gate).toMatchObject({ decision: 'bounce', passed: false });
  });

  it('rollback on failure: the tree goes back to the checkpoint and the probe forgets its baseline', async () => {
    const h = loopHarness({ responses: [working(), done(), done()], gate: { results: [false, true], rollbackOnFail: true }, config: { maxLoops: 2 } });
    await h.run();
    expect(h.of('checkpoint.restored')).toEqual([expect.objectContaining({ iteration: 1, id: 'cp-1', cause: 'verify_failed', reverted: ['work.txt'] })]);
    expect(h.checkpoints?.rolledBack).toEqual(['cp-1']);
    expect(h.checkpoints?.dropped).toContain('cp-1');
    expect(h.probe.invalidated).toBe(1);
  });

  it('a rollback that fails says so and keeps the checkpoint', async () => {
    const checkpoints = new FakeCheckpoints();
    checkpoints.rollbackResult = { ok: false, reason: 'index.lock exists', changed: true };
    const h = loopHarness({ responses: [working()], gate: { results: [false], rollbackOnFail: true, checkpoints }, config: { maxLoops: 1 } });
    await h.run();
    expect(h.notices('rollback.failed')).toEqual(['Rollback to checkpoint cp-1 failed: index.lock exists. The rollback is incomplete.']);
    expect(checkpoints.dropped).toEqual([]);
  });

  it('a rollback that cannot finish stops the loop (rollback_failed, exit 1) instead of going on from a half-restored tree', async () => {
    const checkpoints = new FakeCheckpoints();
    checkpoints.rollbackResult = { ok: false, reason: 'EACCES: permission denied, open src/x.ts', changed: true };
    const h = loopHarness({
      responses: [working(), working(), working()],
      gate: { results: [false, false, false], rollbackOnFail: true, checkpoints },
      config: { maxLoops: 3 },
    });
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'rollback_failed', exitCode: 1 });
    expect(result.message).toContain('EACCES: permission denied');
    expect(checkpoints.created).toEqual([1]);
  });

  it.each([
    ['retry', 'max_loops', 'escalated_retry'],
    ['skip', 'max_loops', 'escalated_skip'],
    ['abort', 'verify_aborted', 'escalated_abort'],
  ] as const)('exhausted with --on-verify-exhausted %s', async (onExhausted, reason, decision) => {
    const h = loopHarness({ responses: [working(), working()], gate: { results: [false, false], maxAttempts: 1, onExhausted }, config: { maxLoops: 2 } });
    expect((await h.run()).reason).toBe(reason);
    expect(h.of('verify.escalated')[0]).toMatchObject({ command: 'npm test', attempts: 1, maxAttempts: 1, fromEarlierRun: false });
    expect(h.of('iteration.end')[0]?.call?.gate?.decision).toBe(decision);
    expect(h.notices('gate.action')[0]).toBe(`Verify gate: ${onExhausted}`);
  });

  it('exhausted and asked at a terminal: the person chooses', async () => {
    const h = loopHarness({ responses: [working()], gate: { results: [false], maxAttempts: 1, onExhausted: 'ask' }, tty: true, answers: ['abort'] });
    expect(await h.run()).toMatchObject({ reason: 'verify_aborted', exitCode: 6, message: 'verify command failed 1/1 times' });
    expect(h.asked[0]).toMatchObject({ question: 'Your choice:', choices: ['retry', 'skip', 'abort'] });
  });

  it('exhausted with nobody at a terminal: an answer left by `ralph --gate-action`, else abort', async () => {
    const h = loopHarness({ responses: [working(), working()], gate: { results: [false], maxAttempts: 1, onExhausted: 'ask' }, config: { maxLoops: 2 } });
    h.store.gateAnswers = ['skip'];
    expect((await h.run()).reason).toBe('max_loops');
    expect(h.notices('gate.action')).toEqual(['Verify gate: skip']);

    const unattended = loopHarness({ responses: [working()], gate: { results: [false], maxAttempts: 1, onExhausted: 'ask' } });
    expect((await unattended.run()).reason).toBe('verify_aborted');
    expect(unattended.notices('gate.unattended')).toEqual(['Verify attempts exhausted and nobody is at a terminal to decide: stopping.']);
  });

  it('a gate an earlier run left paused asks first; abort ends the run before any call (exit 6)', async () => {
    const store = loopHarness().store;
    // What a run that stopped while the question was open leaves in .verify_gate.
    const failed = { command: 'npm test', passed: false, exitCode: 1, signal: null, timedOut: false, durationMs: 5, stdout: '', stderr: 'FAIL' };
    store.gate = { gateId: 'gate-x', command: 'npm test', attempt: 1, maxAttempts: 1, status: 'escalated', results: [summarizeVerifyResult(failed, 0)] };
    const again = loopHarness({ store, responses: [working()], gate: { results: [false], maxAttempts: 1, onExhausted: 'abort' } });
    expect(await again.run()).toMatchObject({ reason: 'verify_aborted', exitCode: 6, message: 'the paused verify gate was answered with abort' });
    expect(again.notices('gate.paused')).toEqual(["The verify gate is paused: 'npm test' failed 1/1 times in an earlier run."]);
    expect(again.of('verify.escalated')[0]).toMatchObject({ fromEarlierRun: true });
    expect(again.of('agent.result')).toEqual([]);
  });

  it('checkpoint_failed: an iteration that needs a checkpoint does not start without one (exit 1)', async () => {
    const checkpoints = new FakeCheckpoints();
    checkpoints.createFails = 'the index is locked';
    const h = loopHarness({ responses: [working()], gate: { results: [true], rollbackOnFail: true, checkpoints } });
    expect(await h.run()).toMatchObject({ reason: 'checkpoint_failed', exitCode: 1, loops: 0 });
  });

  it('a checkpoint that is only nice to have (--backup) is skipped with a warning', async () => {
    const checkpoints = new FakeCheckpoints();
    checkpoints.createFails = 'the index is locked';
    const h = loopHarness({ responses: [working()], gate: { command: '', checkpoints, backup: true }, config: { maxLoops: 1 } });
    expect((await h.run()).reason).toBe('max_loops');
    expect(h.notices('checkpoint.skipped')).toEqual(['No checkpoint for loop #1: the index is locked']);
  });

  it('a failed call that changed files: kept, or rolled back with --rollback-on-fail', async () => {
    const failing = { output: 'Error: something broke', exit_code: 1 };
    const kept = loopHarness({ responses: [failing, working()], gate: { results: [true] }, config: { maxLoops: 2 } });
    await kept.run();
    expect(kept.notices('call.failed_with_changes')).toEqual([
      expect.stringContaining("the changes stay in the work tree. 'ralph --restore cp-1' brings back the state before loop #1"),
    ]);

    const rolled = loopHarness({ responses: [failing, working()], gate: { results: [true], rollbackOnFail: true }, config: { maxLoops: 2 } });
    await rolled.run();
    expect(rolled.notices('call.failed_with_changes')).toEqual([
      'The agent call failed after changing 1 file: a failed attempt, rolled back like a failed verify.',
    ]);
    expect(rolled.of('checkpoint.restored')[0]).toMatchObject({ cause: 'agent_failed' });
    expect(rolled.probe.invalidated).toBe(1);

    const unchecked = loopHarness({ responses: [failing, working()], gate: { results: [true], checkpoint: false }, config: { maxLoops: 2 } });
    await unchecked.run();
    expect(unchecked.notices('call.failed_with_changes')).toEqual([expect.stringContaining('there is no checkpoint of this loop')]);
  });

  it('plan_complete needs a passing verify run on the current tree; a failure is fed back instead', async () => {
    const h = loopHarness({ responses: [{ output: 'Worked on it.' }], fixPlan: plan(true), gate: { results: [false, true] } });
    expect(await h.run()).toMatchObject({ reason: 'plan_complete', exitCode: 0 });
    expect(h.notices('plan.verify_fails')).toEqual([
      'Every task in fix_plan.md is checked, but the verify command fails: the loop continues with the failure as feedback',
    ]);
  });

  it('the gate shows in the status: command, state and attempt', async () => {
    const h = loopHarness({ responses: [working()], gate: { results: [false] }, config: { maxLoops: 1 } });
    await h.run();
    expect(h.of('status').at(-1)?.run.verify).toMatchObject({
      command: 'npm test',
      state: 'failing',
      attempt: 1,
      max_attempts: 3,
      last: { passed: false, exit_code: 1 },
    });
  });

  it('plan_complete without a gate: every blocking task checked ends the loop before a call (exit 0)', async () => {
    const h = loopHarness({ responses: [working()], fixPlan: plan(true) });
    expect(await h.run()).toMatchObject({ reason: 'plan_complete', exitCode: 0, loops: 0, message: 'all 1 blocking tasks in fix_plan.md are checked' });
  });

  it('a completion claim the failing gate refuses is said, and the loop goes on', async () => {
    const h = loopHarness({ responses: [done(), done(), done()], gate: { results: [false, false, true] } });
    expect((await h.run()).reason).toBe('project_complete');
    expect(h.notices('exit.note')).toContain('project_complete refused: the verify command fails on the current tree');
  });
});
