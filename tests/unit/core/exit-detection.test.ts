import { describe, expect, it } from 'vitest';
import { decideIterationExit, isPlanComplete, type IterationExit, type VerifyEvidence } from '../../../src/core/exit-detection.js';
import { claimsCompletion, emptyExitSignals, recordAnalysis, recordClaimOutcome, type ExitSignals } from '../../../src/core/exit-signals.js';
import { parseFixPlan } from '../../../src/core/fix-plan.js';
import type { Analysis } from '../../../src/core/response-analyzer.js';
import { analyze, cliResult, makeAnalysis, statusBlock } from '../support/analysis.js';

const NO_VERIFY: VerifyEvidence = { configured: false };
const VERIFY_FAILS: VerifyEvidence = { configured: true, passed: false };
const VERIFY_PASSES: VerifyEvidence = { configured: true, passed: true };

/** Runs analyses through the loop's exit bookkeeping; returns each iteration's verdict. */
function run(analyses: Array<Partial<Analysis>>, verify: VerifyEvidence | ((loop: number) => VerifyEvidence) = NO_VERIFY): IterationExit[] {
  let signals: ExitSignals = emptyExitSignals();
  const verdicts: IterationExit[] = [];
  analyses.forEach((overrides, i) => {
    const analysis = makeAnalysis({ loop: i + 1, ...overrides });
    signals = recordAnalysis(signals, analysis);
    const evidence = typeof verify === 'function' ? verify(i + 1) : verify;
    const verdict = decideIterationExit(signals, analysis, evidence);
    verdicts.push(verdict);
    signals = recordClaimOutcome(signals, claimsCompletion(analysis), verdict.kind === 'complete');
  });
  return verdicts;
}

const last = (verdicts: IterationExit[]): IterationExit => verdicts[verdicts.length - 1] as IterationExit;

const EXIT_TRUE: Partial<Analysis> = { exitSignal: true, exitSignalExplicit: true, hasCompletionSignal: true, status: 'COMPLETE' };
const EXIT_FALSE: Partial<Analysis> = { exitSignal: false, exitSignalExplicit: true };
const COMPLETE_BUT_FALSE: Partial<Analysis> = { exitSignal: false, exitSignalExplicit: true, hasCompletionSignal: true, status: 'COMPLETE' };
const IMPLICIT_COMPLETE: Partial<Analysis> = { exitSignal: true, exitSignalExplicit: false, hasCompletionSignal: true, status: 'COMPLETE' };
const TEXT_DONE: Partial<Analysis> = { mode: 'text', hasCompletionSignal: true, completionPhrase: 'done' };
const TEST_ONLY: Partial<Analysis> = { isTestOnly: true, workType: 'TESTING' };
const WORK: Partial<Analysis> = { hasProgress: true, progressSources: ['git'] };

describe('decideIterationExit: explicit EXIT_SIGNAL: false always continues', () => {
  it('even with STATUS: COMPLETE and four earlier EXIT_SIGNAL: true', () => {
    const verdict = last(run([EXIT_TRUE, EXIT_TRUE, EXIT_TRUE, EXIT_TRUE, COMPLETE_BUT_FALSE]));
    expect(verdict.kind).toBe('continue');
    if (verdict.kind === 'continue') {
      expect(verdict.claimed).toBe(false);
      expect(verdict.note).toContain('EXIT_SIGNAL: false');
    }
  });

  it('even in text mode after completion words', () => {
    expect(last(run([TEXT_DONE, TEXT_DONE, { ...TEXT_DONE, ...EXIT_FALSE, hasCompletionSignal: false }])).kind).toBe('continue');
  });

  it('even with a passing verify run', () => {
    expect(last(run([EXIT_TRUE, COMPLETE_BUT_FALSE], VERIFY_PASSES)).kind).toBe('continue');
  });

  it('but not against test saturation, a stagnation exit', () => {
    const falseTests = { ...TEST_ONLY, ...EXIT_FALSE };
    expect(last(run([falseTests, falseTests, falseTests]))).toEqual({ kind: 'complete', reason: 'test_saturation' });
  });
});

describe('decideIterationExit: project_complete', () => {
  it('needs the latest EXIT_SIGNAL: true and two of the last five', () => {
    const verdicts = run([EXIT_TRUE, EXIT_TRUE]);
    expect(verdicts[0]).toEqual({ kind: 'continue', claimed: true, refusedByVerify: false });
    expect(verdicts[1]).toEqual({ kind: 'complete', reason: 'project_complete' });
  });

  it('the two need not be consecutive', () => {
    expect(last(run([EXIT_TRUE, EXIT_FALSE, {}, EXIT_TRUE]))).toEqual({ kind: 'complete', reason: 'project_complete' });
  });

  it('an EXIT_SIGNAL: true that left the window of five does not count', () => {
    expect(last(run([EXIT_TRUE, {}, {}, {}, {}, EXIT_TRUE])).kind).toBe('continue');
    expect(last(run([EXIT_TRUE, {}, {}, {}, EXIT_TRUE]))).toEqual({ kind: 'complete', reason: 'project_complete' });
  });

  it('STATUS: COMPLETE without EXIT_SIGNAL counts as an exit signal', () => {
    expect(last(run([IMPLICIT_COMPLETE, IMPLICIT_COMPLETE]))).toEqual({ kind: 'complete', reason: 'project_complete' });
  });

  it('one EXIT_SIGNAL: true plus a passing verify run on the current tree is enough', () => {
    expect(run([EXIT_TRUE], VERIFY_PASSES)[0]).toEqual({ kind: 'complete', reason: 'project_complete' });
  });

  it('one EXIT_SIGNAL: true with a verify gate that did not run is not enough', () => {
    expect(run([EXIT_TRUE], { configured: true })[0]).toMatchObject({ kind: 'continue', claimed: true });
  });

  it('a passing verify run without any claim ends nothing', () => {
    expect(run([WORK, WORK], VERIFY_PASSES).every((v) => v.kind === 'continue')).toBe(true);
  });

  it('completion words in JSON mode are no claim (#224)', () => {
    const done = analyze(cliResult('All done, the project is complete.'));
    const verdicts = run([done, { ...done, loop: 2 }, { ...done, loop: 3 }]);
    expect(verdicts.every((v) => v.kind === 'continue' && !v.claimed)).toBe(true);
  });

  it('two real answers with EXIT_SIGNAL: true end the loop at the second', () => {
    const a1 = analyze(cliResult(`Done.\n${statusBlock({ STATUS: 'COMPLETE', TESTS_STATUS: 'PASSING', EXIT_SIGNAL: 'true' })}`), { loop: 1 });
    const a2 = { ...a1, loop: 2 };
    expect(run([a1, a2]).map((v) => v.kind)).toEqual(['continue', 'complete']);
  });
});

describe('decideIterationExit: completion_signals (text mode only)', () => {
  it('two completion signals in the last five end a text-mode loop', () => {
    const verdicts = run([TEXT_DONE, { mode: 'text' }, TEXT_DONE]);
    expect(verdicts.map((v) => v.kind)).toEqual(['continue', 'continue', 'complete']);
    expect(last(verdicts)).toEqual({ kind: 'complete', reason: 'completion_signals' });
  });

  it('one completion signal is not enough', () => {
    expect(last(run([{ mode: 'text' }, TEXT_DONE])).kind).toBe('continue');
  });

  it('completion signals that left the window do not count', () => {
    expect(last(run([TEXT_DONE, { mode: 'text' }, { mode: 'text' }, { mode: 'text' }, { mode: 'text' }, TEXT_DONE])).kind).toBe('continue');
  });

  it('never applies to JSON mode', () => {
    const jsonDone: Partial<Analysis> = { mode: 'json', hasCompletionSignal: true };
    expect(run([jsonDone, jsonDone, jsonDone]).every((v) => v.kind === 'continue')).toBe(true);
  });

  it('not when the latest text answer says EXIT_SIGNAL: false', () => {
    expect(last(run([TEXT_DONE, TEXT_DONE, { mode: 'text', ...COMPLETE_BUT_FALSE }])).kind).toBe('continue');
  });

  // Regression: earlier, answers that said EXIT_SIGNAL: false (with STATUS: COMPLETE: "task done, project not
  // done", #146) are recorded as completion signals, so a later plain text answer ends the loop
  // with completion_signals. Spec §5: "2 completion signals in the last 5 without an explicit
  // false"; an explicit false is not a completion signal.
  it('answers that said EXIT_SIGNAL: false are not counted as completion signals', () => {
    const textFalse: Partial<Analysis> = { mode: 'text', ...COMPLETE_BUT_FALSE };
    expect(last(run([textFalse, textFalse, { mode: 'text', workSummary: 'Implemented the next step' }])).kind).toBe('continue');
  });
});

describe('decideIterationExit: test_saturation', () => {
  it('three consecutive test-only iterations', () => {
    const verdicts = run([TEST_ONLY, TEST_ONLY, TEST_ONLY]);
    expect(verdicts.map((v) => v.kind)).toEqual(['continue', 'continue', 'complete']);
    expect(last(verdicts)).toEqual({ kind: 'complete', reason: 'test_saturation' });
  });

  it('two are not enough', () => {
    expect(run([TEST_ONLY, TEST_ONLY]).every((v) => v.kind === 'continue')).toBe(true);
  });

  it('an iteration with other work in between restarts the count', () => {
    expect(run([TEST_ONLY, TEST_ONLY, WORK, TEST_ONLY, TEST_ONLY]).every((v) => v.kind === 'continue')).toBe(true);
    expect(last(run([TEST_ONLY, WORK, TEST_ONLY, TEST_ONLY, TEST_ONLY]))).toEqual({ kind: 'complete', reason: 'test_saturation' });
  });

  it('works from the text heuristic too', () => {
    const textTests = analyze('Running tests\nnpm test\nall passing');
    expect(textTests.isTestOnly).toBe(true);
    expect(last(run([textTests, textTests, textTests]))).toEqual({ kind: 'complete', reason: 'test_saturation' });
  });

  it('with a failing verify gate it is refused like any completion', () => {
    expect(last(run([TEST_ONLY, TEST_ONLY, TEST_ONLY], VERIFY_FAILS))).toMatchObject({ kind: 'continue', refusedByVerify: true });
  });
});

describe('decideIterationExit: completion needs work done in the run', () => {
  const idle = (loop: number): VerifyEvidence => ({ configured: false, workInRun: loop < 0 });
  const idleVerified = (): VerifyEvidence => ({ configured: true, passed: true, workInRun: false });

  it('two EXIT_SIGNAL: true without any change continue, with the reason', () => {
    const verdict = last(run([EXIT_TRUE, EXIT_TRUE], idle));
    expect(verdict).toMatchObject({ kind: 'continue', claimed: true, refusedByVerify: false });
    if (verdict.kind === 'continue') expect(verdict.note).toContain('nothing has changed in this run');
  });

  it('a passing verify command on an untouched tree is no evidence', () => {
    expect(last(run([EXIT_TRUE], idleVerified)).kind).toBe('continue');
  });

  it('text-mode completion words without any change continue', () => {
    expect(last(run([TEXT_DONE, TEXT_DONE], idle)).kind).toBe('continue');
  });

  it('work earlier in the run is enough', () => {
    expect(last(run([EXIT_TRUE, EXIT_TRUE], (loop) => ({ configured: false, workInRun: loop >= 1 })))).toEqual({
      kind: 'complete',
      reason: 'project_complete',
    });
  });

  it('test saturation needs no work: it is stagnation', () => {
    expect(last(run([TEST_ONLY, TEST_ONLY, TEST_ONLY], idle))).toEqual({ kind: 'complete', reason: 'test_saturation' });
  });

  it('endless claims without work trip the safety breaker', () => {
    expect(last(run([EXIT_TRUE, EXIT_TRUE, EXIT_TRUE, EXIT_TRUE, EXIT_TRUE], idle))).toMatchObject({ kind: 'safety_circuit_breaker', claims: 5 });
  });
});

describe('decideIterationExit: the verify gate and the safety breaker', () => {
  it('no completion is accepted while verify fails: the loop continues, refused by verify', () => {
    const verdict = last(run([EXIT_TRUE, EXIT_TRUE], VERIFY_FAILS));
    expect(verdict.kind).toBe('continue');
    if (verdict.kind === 'continue') {
      expect(verdict.claimed).toBe(true);
      expect(verdict.refusedByVerify).toBe(true);
      expect(verdict.note).toContain('project_complete refused');
    }
  });

  it('the completion is accepted once verify passes', () => {
    const verdicts = run([EXIT_TRUE, EXIT_TRUE, EXIT_TRUE], (loop) => (loop < 3 ? VERIFY_FAILS : VERIFY_PASSES));
    expect(verdicts.map((v) => v.kind)).toEqual(['continue', 'continue', 'complete']);
  });

  it('the 5th unaccepted claim in a row trips safety_circuit_breaker', () => {
    const verdicts = run(
      Array.from({ length: 5 }, () => EXIT_TRUE),
      VERIFY_FAILS,
    );
    expect(verdicts.slice(0, 4).every((v) => v.kind === 'continue')).toBe(true);
    expect(verdicts[4]).toEqual({ kind: 'safety_circuit_breaker', claims: 5 });
  });

  it('an iteration without a claim resets the count', () => {
    const verdicts = run([EXIT_TRUE, EXIT_TRUE, EXIT_TRUE, EXIT_TRUE, EXIT_FALSE, EXIT_TRUE, EXIT_TRUE, EXIT_TRUE, EXIT_TRUE], VERIFY_FAILS);
    expect(verdicts.every((v) => v.kind === 'continue')).toBe(true);
  });

  it('text-mode claims count too', () => {
    const verdicts = run(
      Array.from({ length: 5 }, () => TEXT_DONE),
      VERIFY_FAILS,
    );
    expect(verdicts[4]).toEqual({ kind: 'safety_circuit_breaker', claims: 5 });
  });
});

describe('decideIterationExit: permission denials', () => {
  it('a real denial ends the loop with permission_denied and the denied commands', () => {
    expect(run([{ hasPermissionDenials: true, permissionDenialCount: 1, deniedCommands: ['Bash(npm test)'] }])[0]).toEqual({
      kind: 'permission_denied',
      deniedCommands: ['Bash(npm test)'],
    });
  });

  it('beats a completion in the same iteration', () => {
    expect(last(run([EXIT_TRUE, { ...EXIT_TRUE, hasPermissionDenials: true, deniedCommands: ['Write'] }])).kind).toBe('permission_denied');
  });

  it('compound-command denials continue', () => {
    expect(run([{ hasCompoundCommandLimitation: true, compoundCommandCount: 1, deniedCommands: ['Bash(mvn test | tail)'] }])[0]).toMatchObject({
      kind: 'continue',
    });
  });

  it('from a real answer: a denial outside ALLOWED_TOOLS halts, a compound one inside it continues', () => {
    const denied = analyze(cliResult('blocked', { permission_denials: [{ tool_name: 'Bash', tool_input: { command: 'npm test 2>&1 | tail' } }] }), {
      allowedTools: ['Bash(git *)'],
    });
    const compound = analyze(cliResult('blocked', { permission_denials: [{ tool_name: 'Bash', tool_input: { command: 'npm test 2>&1 | tail' } }] }), {
      allowedTools: ['Bash(npm *)'],
    });
    expect(run([denied])[0]?.kind).toBe('permission_denied');
    expect(run([compound])[0]?.kind).toBe('continue');
  });
});

describe('decideIterationExit: precedence and thresholds', () => {
  it('with nothing going on, continues without a claim', () => {
    expect(run([{}])[0]).toEqual({ kind: 'continue', claimed: false, refusedByVerify: false });
  });

  it('test_saturation, a stagnation exit, is checked before the completion rules', () => {
    expect(last(run([TEST_ONLY, { ...TEST_ONLY, ...EXIT_TRUE }, { ...TEST_ONLY, ...EXIT_TRUE }]))).toEqual({ kind: 'complete', reason: 'test_saturation' });
  });

  it('custom thresholds are honoured', () => {
    let signals = emptyExitSignals();
    const a = makeAnalysis({ loop: 1, ...EXIT_TRUE });
    signals = recordAnalysis(signals, a);
    expect(decideIterationExit(signals, a, NO_VERIFY, { exitSignals: 1, completionSignals: 2, testOnly: 3, safetyClaims: 5 })).toEqual({
      kind: 'complete',
      reason: 'project_complete',
    });
  });
});

describe('isPlanComplete', () => {
  const optional = ['Optional'];
  const done = parseFixPlan('- [x] a\n- [x] b', optional);
  const open = parseFixPlan('- [x] a\n- [ ] b', optional);

  it.each([
    ['no fix_plan', undefined, undefined, false],
    ['unchecked blocking task', open, undefined, false],
    ['every task checked, no analysis yet', done, undefined, true],
    ['every task checked, latest EXIT_SIGNAL: true', done, makeAnalysis({ exitSignal: true, exitSignalExplicit: true }), true],
    ['every task checked, latest without EXIT_SIGNAL', done, makeAnalysis(), true],
    ['every task checked, but the latest analysis said EXIT_SIGNAL: false', done, makeAnalysis({ exitSignal: false, exitSignalExplicit: true }), false],
    ['no checkboxes at all', parseFixPlan('# notes', optional), undefined, false],
  ] as const)('%s → %s', (_name, plan, latest, complete) => {
    expect(isPlanComplete(plan, latest)).toBe(complete);
  });
});
