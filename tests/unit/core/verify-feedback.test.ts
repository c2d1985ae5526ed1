import { describe, expect, it } from 'vitest';
import {
  cleanTerminalText,
  codeSpan,
  fence,
  formatBounceBack,
  formatEscalation,
  formatExitCode,
  formatPassed,
  selectOutput,
  tailForPrompt,
  type VerifyOutcome,
} from '../../../src/core/verify-feedback.js';

function result(overrides: Partial<VerifyOutcome> = {}): VerifyOutcome {
  return {
    command: 'npm test',
    passed: false,
    exitCode: 1,
    signal: null,
    timedOut: false,
    durationMs: 3420,
    stdout: '',
    stderr: 'FAIL src/auth.test.ts\n✗ should validate token (23ms)\nExpected: 200\nReceived: 401\n',
    ...overrides,
  };
}

/** Fenced blocks of a markdown text, as a CommonMark reader would see them. */
function fencedBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(`{3,})$/.exec(lines[i] ?? '');
    if (!open) continue;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j]!.startsWith(open[1]!) && /^`+$/.test(lines[j]!) && lines[j]!.length >= open[1]!.length)) body.push(lines[j++]!);
    blocks.push(body.join('\n'));
    i = j;
  }
  return blocks;
}

describe('formatBounceBack', () => {
  it('follows seed 000 exactly: header, command, exit code, fenced error output', () => {
    const text = formatBounceBack(result(), 2, 5);
    expect(text.split('\n').slice(0, 6)).toEqual([
      '## Shell Verification FAILED (Attempt 2/5)',
      '',
      '**Command:** `npm test`',
      '**Exit Code:** 1',
      '',
      '### Error Output',
    ]);
    expect(fencedBlocks(text)).toEqual(['FAIL src/auth.test.ts\n✗ should validate token (23ms)\nExpected: 200\nReceived: 401']);
  });

  it('says "timed out after Ns" instead of an exit code', () => {
    const text = formatBounceBack(
      result({ exitCode: null, signal: 'SIGTERM', timedOut: true, timeoutMs: 2000, durationMs: 2004, explanation: 'timed out after 2s; …' }),
      1,
      5,
    );
    expect(text).toContain('**Exit Code:** timed out after 2s');
    expect(text).not.toContain('**Reason:**');
  });

  it('falls back to the duration when the limit is unknown', () => {
    expect(formatExitCode(result({ exitCode: null, timedOut: true, durationMs: 1500 }))).toBe('timed out after 1.5s');
  });

  it('gives the reason in plain words when there is one', () => {
    const text = formatBounceBack(
      result({ exitCode: 127, stderr: 'sh: 1: nonexistent_command_xyz: not found\n', explanation: 'command not found: nonexistent_command_xyz' }),
      1,
      5,
    );
    expect(text).toContain('**Exit Code:** 127');
    expect(text).toContain('**Reason:** command not found: nonexistent_command_xyz');
  });

  it.each([
    [{ exitCode: null, signal: 'SIGKILL' }, 'none (killed by SIGKILL)'],
    [{ exitCode: null, signal: null }, 'none (the command did not run)'],
    [{ exitCode: 137 }, '137'],
  ] as const)('exit code wording %#', (overrides, expected) => {
    expect(formatExitCode(result(overrides))).toBe(expected);
  });

  it('says "No output captured" when both streams are empty', () => {
    const text = formatBounceBack(result({ stdout: '', stderr: '  \n' }), 1, 3);
    expect(fencedBlocks(text)).toEqual(['No output captured']);
  });

  it('falls back to stdout when stderr is empty (pytest, vitest)', () => {
    const text = formatBounceBack(result({ stdout: 'FAILED tests/test_a.py::test_x - assert 1 == 2\n', stderr: '' }), 1, 3);
    expect(fencedBlocks(text)).toEqual(['FAILED tests/test_a.py::test_x - assert 1 == 2']);
  });

  it("shows both streams when both have text, so `npm test` does not hide the cause behind npm's own error", () => {
    const text = formatBounceBack(
      result({
        stdout: ' FAIL  tests/a.test.ts > adds\nAssertionError: expected 3 to be 4\n',
        stderr: 'npm error Lifecycle script `test` failed with error:\n',
      }),
      1,
      3,
    );
    expect(text).toContain('### Error Output');
    expect(text).toContain('### Standard Output');
    expect(fencedBlocks(text)).toEqual([
      'npm error Lifecycle script `test` failed with error:',
      ' FAIL  tests/a.test.ts > adds\nAssertionError: expected 3 to be 4',
    ]);
  });

  it('caps what goes into the prompt at about 2,000 characters of tail and keeps the end', () => {
    const long = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const text = formatBounceBack(result({ stderr: `[...truncated, showing last 5000 chars...]\n${long.slice(-5000)}` }), 1, 5);
    const [block] = fencedBlocks(text);
    expect(block!.startsWith('[...truncated, showing last 2000 chars...]\n')).toBe(true);
    expect(block!.endsWith('line 1999')).toBe(true);
    expect(block!.length).toBeLessThanOrEqual(2000 + '[...truncated, showing last 2000 chars...]\n'.length);
  });

  it('splits the budget between the streams, giving unused room to the other', () => {
    const sections = selectOutput(result({ stderr: 'short error', stdout: 'x'.repeat(5000) }), { maxTailChars: 1000 });
    expect(sections[0]!.text).toBe('short error');
    expect(sections[1]!.text).toBe(`[...truncated, showing last 989 chars...]\n${'x'.repeat(989)}`);
  });

  it('keeps a fenced block intact when the output itself contains ``` fences', () => {
    const stderr = 'Snapshot mismatch:\n```\nexpected\n```\n````js\nactual\n````\nend';
    const text = formatBounceBack(result({ stderr }), 1, 5);
    expect(fencedBlocks(text)).toEqual([stderr]);
    expect(text).toContain('`````\nSnapshot mismatch');
  });

  it('quotes a command that contains backticks', () => {
    const text = formatBounceBack(result({ command: 'test "`cat v`" = 1' }), 1, 5);
    expect(text).toContain('**Command:** ``test "`cat v`" = 1``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
  });

  it('removes colour codes and progress-bar redraws from the output', () => {
    const text = formatBounceBack(result({ stderr: '\u001b[31mFAIL\u001b[39m a.test.ts\r\nprogress 10%\rprogress 100%\n' }), 1, 5);
    expect(fencedBlocks(text)).toEqual(['FAIL a.test.ts\nprogress 100%']);
  });

  it('ends with an instruction to the agent', () => {
    expect(formatBounceBack(result(), 1, 5).split('\n').at(-1)).toBe(
      'Fix the cause of this failure. Ralph runs `npm test` again after your next iteration; exit code 0 passes.',
    );
  });
});

describe('formatEscalation', () => {
  it('follows seed 000: header, command, attempts, recent output, gate_action list', () => {
    const text = formatEscalation(result({ stderr: "Cannot resolve module './missing-dep'\n" }), 5, 5);
    const lines = text.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '## Shell Verification FAILED - Maximum Attempts Reached',
      '',
      '**Command:** `npm test`',
      '**Attempts:** 5/5',
      '**Exit Code:** 1',
    ]);
    expect(text).toContain("### Recent Error Output\n```\nCannot resolve module './missing-dep'\n```");
    expect(lines.slice(-4)).toEqual([
      'Use `gate_action` (`ralph --gate-action retry|skip|abort`):',
      '- **retry**: Reset attempt count and try again',
      '- **skip**: Bypass verification and continue',
      '- **abort**: Stop execution',
    ]);
  });

  it('says a timeout plainly', () => {
    expect(formatEscalation(result({ exitCode: null, timedOut: true, timeoutMs: 300_000 }), 5, 5)).toContain('**Exit Code:** timed out after 300s');
  });
});

describe('formatPassed', () => {
  it('is one line for the log', () => {
    expect(formatPassed(result({ passed: true, exitCode: 0, durationMs: 3420 }), 1)).toBe('Shell Verification PASSED: npm test (exit 0 in 3.4s)');
    expect(formatPassed(result({ passed: true, exitCode: 0, durationMs: 120 }), 2)).toBe('Shell Verification PASSED on attempt 2: npm test (exit 0 in 0.1s)');
  });
});

describe('helpers', () => {
  it('fence grows past the longest backtick run', () => {
    expect(fence('a')).toBe('```\na\n```');
    expect(fence('``````')).toBe('```````\n``````\n```````');
  });

  it('tailForPrompt leaves short text alone', () => {
    expect(tailForPrompt('ok\n', 100)).toBe('ok');
  });

  it('tailForPrompt never splits a surrogate pair', () => {
    const tail = tailForPrompt(`${'a'.repeat(10)}😀b`, 2);
    expect(tail.endsWith('b')).toBe(true);
    expect(tail).not.toMatch(/[\uDC00-\uDFFF](?![\s\S])|^[\uDC00-\uDFFF]/);
  });

  it('cleanTerminalText strips OSC hyperlinks', () => {
    expect(cleanTerminalText('\u001b]8;;http://x\u0007link\u001b]8;;\u0007')).toBe('link');
  });
});
