import { describe, expect, it } from 'vitest';
import {
  evaluateAssertion,
  evaluateAssertions,
  reasonMatches,
  type Assertion,
  type AssertionFacts,
  type FileRead,
} from '../../../../../src/features/agent-tools/test/assertions.js';
import type { EventRecord } from '../../../../../src/features/observe/event-log-inspect.js';

const rec = (event: string, data: Record<string, unknown> = {}): EventRecord => ({ ts: 0, event, data });
const RECORDS = [
  rec('task.start'),
  rec('build.task', { payload: 'Implement X' }),
  rec('verify.result', { passed: false }),
  rec('build.done'),
  rec('verify.result', { passed: true }),
];
const FILES: Record<string, FileRead> = {
  'src/main.rs': { kind: 'file', text: 'fn main() {\n    println!("hi");\n}\n' },
  '.ralph/fix_plan.md': { kind: 'file', text: '# Plan\n## Completed\n- [x] one\n' },
  'big.bin': { kind: 'unreadable', reason: 'too large' },
};

function facts(overrides: Partial<AssertionFacts> = {}): AssertionFacts {
  return {
    run: { exit_code: 7, termination_reason: 'max_loops', iterations: 3, elapsed_secs: 4.5 },
    session: { records: RECORDS },
    readFile: (path) => FILES[path] ?? { kind: 'missing' },
    scratchpadPath: '.ralph/fix_plan.md',
    ...overrides,
  };
}

describe('evaluateAssertion', () => {
  it.each<[string, Assertion, boolean]>([
    ['exit code matches', { type: 'exit_code', expected: 7 }, true],
    ['exit code differs', { type: 'exit_code', expected: 0 }, false],
    ['reason matches', { type: 'termination_reason', expected: 'max_loops' }, true],
    ['seed reason word', { type: 'termination_reason', expected: 'MaxIterations' }, true],
    ['wrong reason', { type: 'termination_reason', expected: 'CompletionPromise' }, false],
    ['iterations exact', { type: 'iterations', exact: 3 }, true],
    ['iterations in range', { type: 'iterations', min: 1, max: 3 }, true],
    ['iterations too many', { type: 'iterations', max: 2 }, false],
    ['iterations too few', { type: 'iterations', min: 4 }, false],
    ['file exists', { type: 'file_exists', path: 'src/main.rs' }, true],
    ['file missing', { type: 'file_exists', path: 'nope.rs' }, false],
    ['file unreadable', { type: 'file_exists', path: 'big.bin' }, false],
    ['file contains', { type: 'file_contains', path: 'src/main.rs', pattern: 'println!\\("hi"\\)' }, true],
    ['file contains, line anchors', { type: 'file_contains', path: 'src/main.rs', pattern: '^}$' }, true],
    ['file lacks pattern', { type: 'file_contains', path: 'src/main.rs', pattern: 'struct' }, false],
    ['file not contains', { type: 'file_not_contains', path: 'src/main.rs', pattern: 'unsafe' }, true],
    ['file does contain', { type: 'file_not_contains', path: 'src/main.rs', pattern: 'main' }, false],
    ['file_not_contains on a missing file fails', { type: 'file_not_contains', path: 'nope.rs', pattern: 'x' }, false],
    ['event occurred', { type: 'event_occurred', topic: 'build.task' }, true],
    ['event glob', { type: 'event_occurred', topic: 'verify.*' }, true],
    ['event with payload', { type: 'event_occurred', topic: 'build.*', payload_pattern: 'Implement' }, true],
    ['payload does not match', { type: 'event_occurred', topic: 'build.task', payload_pattern: 'Refactor' }, false],
    ['event missing', { type: 'event_occurred', topic: 'loop.exit' }, false],
    ['subsequence in order', { type: 'event_sequence', topics: ['task.start', 'build.done'] }, true],
    ['subsequence with globs', { type: 'event_sequence', topics: ['build.*', 'verify.*', 'build.*', 'verify.*'] }, true],
    ['wrong order', { type: 'event_sequence', topics: ['build.done', 'task.start'] }, false],
    ['repeated topic needs two records', { type: 'event_sequence', topics: ['build.done', 'build.done'] }, false],
    ['count exact', { type: 'event_count', topic: 'verify.result', exact: 2 }, true],
    ['count min', { type: 'event_count', topic: 'build.*', min: 3 }, false],
    ['scratchpad contains', { type: 'scratchpad_contains', pattern: '## Completed' }, true],
    ['scratchpad lacks', { type: 'scratchpad_contains', pattern: 'Blocked' }, false],
    ['no event', { type: 'no_event', topic: 'circuit.*' }, true],
    ['event did occur', { type: 'no_event', topic: 'task.start' }, false],
    ['duration within', { type: 'duration', max_secs: 5 }, true],
    ['duration over', { type: 'duration', max_secs: 4 }, false],
  ])('%s', (_name, assertion, passed) => {
    const result = evaluateAssertion(assertion, facts());
    expect(result.passed).toBe(passed);
    expect(result.assertion).toBe(assertion.type);
    if (!passed) expect(typeof result.message).toBe('string');
  });

  it('a bad regex fails its assertion with the compiler message', () => {
    const result = evaluateAssertion({ type: 'file_contains', path: 'src/main.rs', pattern: 'fn main(' }, facts());
    expect(result).toMatchObject({ passed: false, path: 'src/main.rs' });
    expect(result.message).toContain('not a valid regular expression');
    expect(evaluateAssertion({ type: 'event_occurred', topic: 'build.task', payload_pattern: '[' }, facts()).message).toContain(
      'payload_pattern is not a valid regular expression',
    );
  });

  it('an overlong pattern is refused instead of run', () => {
    expect(evaluateAssertion({ type: 'scratchpad_contains', pattern: 'a'.repeat(1001) }, facts()).message).toContain('longer than 1000');
  });

  it('without a run, run facts fail and say to call test_run', () => {
    const result = evaluateAssertion({ type: 'exit_code', expected: 0 }, facts({ run: undefined }));
    expect(result).toMatchObject({ passed: false, actual: null });
    expect(result.message).toContain('call test_run first');
  });

  it('without a session, event assertions fail with the reason', () => {
    const result = evaluateAssertion({ type: 'no_event', topic: 'x' }, facts({ session: { unavailable: 'no session recording yet' } }));
    expect(result).toEqual({ assertion: 'no_event', passed: false, topic: 'x', message: 'no session recording yet' });
  });

  it('reports the seed shape for passing assertions', () => {
    expect(evaluateAssertion({ type: 'exit_code', expected: 7 }, facts())).toEqual({ assertion: 'exit_code', passed: true, expected: 7, actual: 7 });
    expect(evaluateAssertion({ type: 'file_exists', path: 'src/main.rs' }, facts())).toEqual({ assertion: 'file_exists', passed: true, path: 'src/main.rs' });
  });
});

describe('evaluateAssertions', () => {
  it('evaluates every assertion without short-circuit and counts failures', () => {
    const report = evaluateAssertions(
      [
        { type: 'exit_code', expected: 0 },
        { type: 'file_contains', path: 'src/main.rs', pattern: '(' },
        { type: 'event_occurred', topic: 'build.task' },
        { type: 'no_event', topic: 'build.task' },
      ],
      facts(),
    );
    expect(report.results.map((r) => r.passed)).toEqual([false, false, true, false]);
    expect(report).toMatchObject({ passed: false, failed_count: 3 });
  });

  it('passes when every assertion passes', () => {
    expect(evaluateAssertions([{ type: 'iterations', min: 1 }], facts())).toEqual({
      passed: true,
      failed_count: 0,
      results: [{ assertion: 'iterations', passed: true, min: 1, actual: 3 }],
    });
  });
});

describe('reasonMatches', () => {
  it.each([
    ['plan_complete', 'plan_complete', true],
    ['CompletionPromise', 'project_complete', true],
    ['completion_promise', 'plan_complete', true],
    ['MaxRuntime', 'max_runtime', true],
    ['max_iterations', 'max_loops', true],
    ['MaxCost', 'max_loops', false],
    ['Interrupted', 'interrupted', true],
  ])('%s vs %s', (expected, actual, passed) => {
    expect(reasonMatches(expected, actual).passed).toBe(passed);
  });
});
