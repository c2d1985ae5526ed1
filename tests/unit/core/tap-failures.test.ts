import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tapFailures } from '../../../src/core/tap-failures.js';
import { formatEscalationSummary } from '../../../src/core/verify-escalation-summary.js';
import { describeVerifyFailure } from '../../../src/core/verify-why-line.js';

// What `npm test` printed for `node --test` on Node 20 (TAP to a pipe), paths renamed.
const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'verify-output', name), 'utf8');
const NPM_NODE_TEST = fixture('npm-node-test-tap.txt');
const SUITE = fixture('node-test-tap-suite.txt');

const failedRun = (stdout: string) => ({ command: 'npm test', passed: false, exitCode: 1, signal: null, timedOut: false, durationMs: 900, stdout, stderr: '' });

describe('tapFailures', () => {
  it('names the failing test, its whole assertion message and its place', () => {
    expect(tapFailures(NPM_NODE_TEST)).toEqual([
      {
        line: 'not ok 1 - adds two numbers',
        name: 'adds two numbers',
        error: 'Expected values to be strictly equal: 2 !== 3',
        location: '/home/dev/calc/calc.test.js:3:1',
      },
    ]);
  });

  it('in a suite, the tests that failed and not the suite that counts them; skipped tests are no failures', () => {
    const failed = tapFailures(SUITE);
    expect(failed.map((f) => [f.name, f.error])).toEqual([
      ['adds', 'Expected values to be strictly equal: 2 !== 3'],
      ["says 'hi'", "nope: can't"],
    ]);
  });

  it('is empty for output that is no TAP', () => {
    expect(tapFailures(' FAIL  tests/calc.test.ts > add\nAssertionError: expected 4 to be 3\n')).toEqual([]);
    expect(tapFailures('')).toEqual([]);
  });
});

describe('a failed node --test run, told in one line and in the escalation box', () => {
  it('the one line names the test and the assertion, not the text before the first colon', () => {
    expect(describeVerifyFailure(failedRun(NPM_NODE_TEST))).toBe('exit code 1 — not ok 1 - adds two numbers: Expected values to be strictly equal: 2 !== 3');
    expect(describeVerifyFailure(failedRun(SUITE))).toBe('exit code 1 — not ok 1 - adds: Expected values to be strictly equal: 2 !== 3 (and 1 more)');
  });

  it('a TAP test without a diagnostic block: its name, then the line that says why', () => {
    const stdout = '\n> calc@1.0.0 test\n> node --test\n\nnot ok 1 - adds\n  AssertionError: expected 4 to be 3\n';
    expect(describeVerifyFailure(failedRun(stdout))).toBe('exit code 1 — not ok 1 - adds: AssertionError: expected 4 to be 3');
    expect(describeVerifyFailure(failedRun('not ok 1 - adds\n'))).toBe('exit code 1 — not ok 1 - adds');
  });

  it("the box lists the failing tests with their diagnostics instead of the stream's footer", () => {
    const text = formatEscalationSummary({ result: failedRun(SUITE), attempts: 3, maxAttempts: 3, tty: true });
    expect(text).toContain(
      '   Failing tests:\n     not ok 1 - adds\n       Expected values to be strictly equal: 2 !== 3\n       at /home/dev/calc/calc.test.js:4:3',
    );
    expect(text).toContain("     not ok 2 - says 'hi'\n       nope: can't");
    expect(text).not.toContain('# duration_ms');
    expect(text).not.toContain('# fail');
  });
});
