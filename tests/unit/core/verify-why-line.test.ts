import { describe, expect, it } from 'vitest';
import { describeVerifyFailure, pickWhyLine } from '../../../src/core/verify-why-line.js';

// Outputs as the tools print them when a test fails (trimmed to the lines that matter).
const NPM_NODE_TEST_STDOUT = `
> calc@1.0.0 test
> node --test

TAP version 13
# Subtest: adds
not ok 1 - adds
  ---
  duration_ms: 0.61
  failureType: 'testCodeFailure'
  error: |-
    Expected values to be strictly equal:
    
    4 !== 3
    
  code: 'ERR_ASSERTION'
  name: 'AssertionError'
  ...
1..1
# tests 1
# pass 0
# fail 1
`;
const NPM_STDERR_NEW =
  'npm error Lifecycle script `test` failed with error:\nnpm error code 1\nnpm error path /tmp/calc\nnpm error command failed\nnpm error command sh -c node --test\n';
const NPM_STDERR_OLD = 'npm ERR! Test failed.  See above for more details.\n';

const NODE_SPEC = `✖ adds (0.9ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

  4 !== 3

      at TestContext.<anonymous> (file:///tmp/calc/test.js:5:10)
ℹ tests 1
ℹ fail 1
`;

const VITEST = `
 RUN  v1.6.0 /tmp/calc

 ❯ tests/calc.test.ts  (1 test | 1 failed) 4ms
   ❯ tests/calc.test.ts > add > adds
     → expected 4 to be 3 // Object.is equality

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  tests/calc.test.ts > add > adds
AssertionError: expected 4 to be 3 // Object.is equality
 ❯ tests/calc.test.ts:5:21

 Test Files  1 failed (1)
      Tests  1 failed (1)
`;

const JEST_STDERR = `FAIL src/calc.test.js
  add
    ✕ adds numbers (3 ms)

  ● add › adds numbers

    expect(received).toBe(expected) // Object.is equality

    Expected: 3
    Received: 4

      3 | test('adds numbers', () => {
    > 4 |   expect(add(1, 2)).toBe(3);

Tests:       1 failed, 1 total
`;

const PYTEST = `============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.2.0
collected 1 item

test_calc.py F                                                           [100%]

=================================== FAILURES ===================================
___________________________________ test_add ___________________________________

    def test_add():
>       assert add(1, 2) == 3
E       assert 4 == 3
E        +  where 4 = add(1, 2)

test_calc.py:4: AssertionError
=========================== short test summary info ============================
FAILED test_calc.py::test_add - assert 4 == 3
============================== 1 failed in 0.01s ===============================
`;

const GO = `--- FAIL: TestAdd (0.00s)
    calc_test.go:8: Add(1, 2) = 4; want 3
FAIL
FAIL	example.com/calc	0.002s
FAIL
`;

const CARGO_STDOUT = `
running 1 test
test tests::adds ... FAILED

failures:

---- tests::adds stdout ----
thread 'tests::adds' panicked at src/lib.rs:12:9:
assertion \`left == right\` failed
  left: 4
 right: 3

failures:
    tests::adds

test result: FAILED. 0 passed; 1 failed; 0 ignored
`;
const CARGO_STDERR =
  '   Compiling calc v0.1.0 (/tmp/calc)\n    Finished test [unoptimized + debuginfo] target(s) in 0.5s\n     Running unittests src/lib.rs\nerror: test failed, to rerun pass `--lib`\n';

const CARGO_COMPILE = `   Compiling calc v0.1.0 (/tmp/calc)
error[E0308]: mismatched types
 --> src/lib.rs:2:5
error: could not compile \`calc\` (lib) due to 1 previous error
`;

const MAKE_PYTEST_STDERR = 'make: *** [Makefile:2: test] Error 1\n';
const YARN_STDOUT = 'yarn run v1.22.19\n$ jest\ninfo Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.\n';
const YARN_STDERR = `${JEST_STDERR}error Command failed with exit code 1.\n`;
const PNPM_STDOUT = `\n> calc@1.0.0 test /tmp/calc\n> vitest run\n${VITEST}`;
const PNPM_STDERR = ' ELIFECYCLE  Test failed. See above for more details.\n';

describe('pickWhyLine: the line that says why a verify command failed', () => {
  it.each([
    // The failing test's name and its whole assertion, not the text up to the first colon.
    ['npm + node:test (TAP), npm 10 banner on stderr', NPM_NODE_TEST_STDOUT, NPM_STDERR_NEW, 'not ok 1 - adds: Expected values to be strictly equal: 4 !== 3'],
    ['npm 6 banner on stderr', NPM_NODE_TEST_STDOUT, NPM_STDERR_OLD, 'not ok 1 - adds: Expected values to be strictly equal: 4 !== 3'],
    ['node:test spec reporter', NODE_SPEC, '', 'adds: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 4 !== 3'],
    ['vitest', VITEST, '', 'AssertionError: expected 4 to be 3 // Object.is equality'],
    ['jest (output on stderr)', '', JEST_STDERR, 'expect(received).toBe(expected) // Object.is equality'],
    ['yarn + jest', YARN_STDOUT, YARN_STDERR, 'expect(received).toBe(expected) // Object.is equality'],
    ['pnpm + vitest', PNPM_STDOUT, PNPM_STDERR, 'AssertionError: expected 4 to be 3 // Object.is equality'],
    ['pytest', PYTEST, '', 'FAILED test_calc.py::test_add - assert 4 == 3'],
    ['make + pytest', `python -m pytest -q\n${PYTEST}`, MAKE_PYTEST_STDERR, 'FAILED test_calc.py::test_add - assert 4 == 3'],
    ['go test', GO, '', 'calc_test.go:8: Add(1, 2) = 4; want 3'],
    ['cargo test', CARGO_STDOUT, CARGO_STDERR, 'assertion `left == right` failed'],
    ['cargo compile error', '', CARGO_COMPILE, 'error[E0308]: mismatched types'],
    [
      'tsc',
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n",
      '',
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    ],
    ['a plain script', '', 'database not reachable at localhost:5432\n', 'database not reachable at localhost:5432'],
  ])('%s', (_name, stdout, stderr, expected) => {
    expect(pickWhyLine(stdout, stderr)).toBe(expected);
  });

  it('never returns a banner of npm, yarn, pnpm or make', () => {
    expect(pickWhyLine('\n> calc@1.0.0 test\n> node --test\n', NPM_STDERR_NEW)).toBeUndefined();
    expect(pickWhyLine('', MAKE_PYTEST_STDERR)).toBeUndefined();
    expect(pickWhyLine(YARN_STDOUT, 'error Command failed with exit code 1.\n')).toBeUndefined();
  });

  it('strips colours and cuts long lines', () => {
    const line = pickWhyLine(`\u001b[31mAssertionError: ${'x'.repeat(300)}\u001b[39m`, '');
    expect(line?.startsWith('AssertionError: xxx')).toBe(true);
    expect(line?.length).toBeLessThanOrEqual(160);
  });

  it('says nothing for no output', () => {
    expect(pickWhyLine('', '')).toBeUndefined();
  });
});

describe('describeVerifyFailure', () => {
  const base = { command: 'npm test', passed: false, signal: null, timedOut: false, durationMs: 900 };
  it.each([
    [
      'the why-line after the exit code',
      { ...base, exitCode: 1, stdout: NPM_NODE_TEST_STDOUT, stderr: NPM_STDERR_NEW },
      'exit code 1 — not ok 1 - adds: Expected values to be strictly equal: 4 !== 3',
    ],
    [
      'the plain explanation when there is one',
      { ...base, exitCode: 127, stdout: '', stderr: 'sh: 1: jest: not found', explanation: 'command not found: jest' },
      'exit code 127 — command not found: jest',
    ],
    ['a timeout', { ...base, exitCode: null, timedOut: true, timeoutMs: 30_000, stdout: '', stderr: '' }, 'timed out after 30s'],
    ['a signal', { ...base, exitCode: null, signal: 'SIGKILL', stdout: '', stderr: '' }, 'killed by SIGKILL'],
    ['only banners', { ...base, exitCode: 1, stdout: '> calc@1.0.0 test\n> node --test\n', stderr: NPM_STDERR_NEW }, 'exit code 1'],
  ])('%s', (_name, result, expected) => {
    expect(describeVerifyFailure(result)).toBe(expected);
  });
});
