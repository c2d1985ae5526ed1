import { clipText } from './message-bounds.js';
import { tapFailures } from './tap-failures.js';
import { cleanTerminalText, formatSecondsShort, type VerifyOutcome } from './verify-feedback.js';

/**
 * The one line of a failed verify command's output that says why it failed,
 * for one-line summaries ("exit code 1 — AssertionError: expected 4 to be 3").
 * Package managers and build tools wrap the real output in banners of their
 * own (`> calc@1.0.0 test`, `npm error Lifecycle script…`, `make: *** […]
 * Error 1`); those say only that something failed, so they are skipped and the
 * line of the test runner or compiler is picked instead.
 */

const MAX_LINE = 160;

/** Lines of npm, yarn, pnpm, make and friends that wrap the command's own output. */
const BANNERS: readonly RegExp[] = [
  /^\[\.\.\.truncated, showing last \d+ chars\.\.\.\]$/,
  /^> /, // npm / pnpm: "> calc@1.0.0 test", "> node --test"
  /^npm (ERR!|error|warn|WARN|notice)\b/,
  /^yarn run v\d/,
  /^\$ /, // yarn echoes the script it runs
  /^error Command failed with (exit code|signal)/, // yarn
  /^info Visit https:\/\/yarnpkg\.com/,
  /^Done in \d/,
  /^\s*ELIFECYCLE\b/, // pnpm
  /^\s*ERR_PNPM_/,
  /^(g?make|mingw32-make)(\[\d+\])?: /, // "make: *** [Makefile:3: test] Error 1", "make[1]: Entering directory"
  /^Command exited with non-zero status/,
  /^error: script ".*" exited with code/, // bun
  /^error: Recipe `.*` failed/, // just
  /^Process completed with exit code/,
  /^error: test failed, to rerun pass/, // cargo
  /^error: \d+ targets? failed/, // cargo
  /^\s*name: '\w*Error'$/, // node:test TAP details
  /^\s*(error|failureType|code|stack): ?\|?-?$/, // node:test TAP keys without a value
];

/** Lines that say why, strongest first. */
const REASONS: readonly RegExp[][] = [
  [
    /^FAILED \S+ - ./, // pytest short summary: test id and the reason
    /\bAssertion(Error|FailedError)\b( \[\w+\])?:\s*\S/, // with its message, not pytest's bare "file.py:4: AssertionError"
    /\bassertion\b.*\bfailed\b/i, // cargo: "assertion `left == right` failed"
    /^\s*Expected values to be (strictly |loosely )?(deep-)?equal/, // node:assert under the TAP reporter
    /^\s*The expression evaluated to a falsy value/,
  ],
  [
    /^E\s+\S/, // pytest's marked lines
    /\bpanicked at\b/,
    /\bexpect\(.*\)\.\w+\(/, // jest/vitest matcher line
    /\berror TS\d+:/, // tsc
    /^\s*\d+:\d+\s+error\s/, // eslint
    /\b[A-Z][A-Za-z]*(Error|Exception)\b(:|\s\[)/, // TypeError: …, Error [ERR_…]
    /^\s*(error|fatal)(\[[A-Z]?\d+\])?:\s*\S/i, // rustc, gcc, node:test "error: …"
    /^\s*\S+:\d+(:\d+)?: .*(error|want|expected)/i, // go test "calc_test.go:8: got 4, want 3", compilers
    /\bexpected\b.*\b(to|but|got|received|actual)\b/i,
    /^\s*(Expected|Received|Actual):?\s/,
  ],
  [
    /^\s*(FAIL|FAILED|--- FAIL:|✗|✘|×|✖|not ok)\b/, // runners' failure markers
    /^\s*(FAIL|✗|✘|×|✖)\s/,
    /\bfailed\b/i,
  ],
];

function isBanner(line: string): boolean {
  return BANNERS.some((re) => re.test(line));
}

function linesOf(text: string): string[] {
  return cleanTerminalText(text)
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !isBanner(l.trim()));
}

function shorten(line: string): string {
  const text = line.trim().replace(/\s+/g, ' ');
  return clipText(text, MAX_LINE - 1);
}

/** A stack frame: where the failure happened, not what it was. */
const STACK_FRAME = /^\s*at\s/;
/** A spec reporter's failed test (`✖ adds two numbers (0.9ms)`), with its name. */
const FAILED_TEST = /^\s*(?:✖|×|✗|✘)\s+(.+?)(?:\s+\(\d[\d.]*m?s\))?$/;

/**
 * The line at `index`, and when it ends with a colon the lines that finish its
 * sentence ("Expected values to be strictly equal:" is followed by "2 !== 3").
 */
function withContinuation(lines: readonly string[], index: number): string {
  const parts = [lines[index] as string];
  for (let i = index + 1; i < lines.length && parts.length < 3 && (parts[parts.length - 1] as string).trimEnd().endsWith(':'); i += 1) {
    const next = lines[i] as string;
    if (STACK_FRAME.test(next) || FAILED_TEST.test(next)) break;
    parts.push(next.trim());
  }
  return parts.join(' ');
}

/** `name: ` of the failed test a spec reporter printed right above the reason, or ''. */
function failedTestBefore(lines: readonly string[], index: number): string {
  const name = FAILED_TEST.exec(lines[index - 1] ?? '')?.[1];
  return name !== undefined && !FAILED_TEST.test(lines[index] as string) ? `${name}: ` : '';
}

/**
 * Picks the line that says why: the first line of the strongest kind found
 * (stderr before stdout at equal strength); without one, the first line that
 * is not a banner. Undefined when there is no such line at all.
 */
export function pickWhyLine(stdout: string, stderr: string): string | undefined {
  // A TAP stream (node --test) names the failing test and its assertion in a block of its own.
  const failed = tapFailures(`${stdout}\n${stderr}`);
  const first = failed[0];
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more)` : '';
  if (first?.error) return shorten(`${first.line}: ${first.error}${more}`);
  const lines = [...linesOf(stderr), ...linesOf(stdout)];
  for (const group of REASONS) {
    const hit = lines.findIndex((line) => group.some((re) => re.test(line)) && line.trim() !== first?.line);
    // A TAP test without a diagnostic block: its name, then the line that says why.
    if (hit >= 0)
      return shorten(first ? `${first.line}: ${lines[hit]?.trim() ?? ''}${more}` : `${failedTestBefore(lines, hit)}${withContinuation(lines, hit)}`);
  }
  if (first) return shorten(`${first.line}${more}`);
  const top = lines[0];
  return top === undefined ? undefined : shorten(top);
}

/** "exit code 1 — AssertionError: …", "timed out after 30s": a failed run in one line. */
export function describeVerifyFailure(result: VerifyOutcome): string {
  if (result.timedOut) return `timed out after ${formatSecondsShort(result.timeoutMs ?? result.durationMs)}`;
  const code = result.exitCode !== null ? `exit code ${result.exitCode}` : result.signal ? `killed by ${result.signal}` : 'no exit code';
  const why = result.explanation ?? pickWhyLine(result.stdout, result.stderr);
  return why ? `${code} — ${why}` : code;
}
