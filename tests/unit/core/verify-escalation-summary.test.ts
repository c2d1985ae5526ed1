import { describe, expect, it } from 'vitest';
import { formatEscalationSummary } from '../../../src/core/verify-escalation-summary.js';

const result = {
  command: 'npm test',
  passed: false,
  exitCode: 1,
  signal: null,
  timedOut: false,
  durationMs: 1200,
  stdout:
    '\n> calc@1.0.0 test\n> vitest run\n\n FAIL  tests/calc.test.ts > add\nAssertionError: expected 4 to be 3 // Object.is equality\n Test Files  1 failed (1)\n',
  stderr: '',
};

describe('formatEscalationSummary', () => {
  it('a person reads the command, the attempts, the why-line and the choices — no agent Markdown', () => {
    const text = formatEscalationSummary({ result, attempts: 5, maxAttempts: 5, tty: true });
    expect(text).toContain('Command:   `npm test`');
    expect(text).toContain('Attempts:  5/5, all failed');
    expect(text).toContain('Last run:  exit code 1 — AssertionError: expected 4 to be 3 // Object.is equality');
    expect(text).toContain('Test Files  1 failed (1)');
    for (const choice of ['retry', 'skip', 'abort']) expect(text).toMatch(new RegExp(`^   ${choice}  `, 'm'));
    expect(text).toContain('from another terminal: ralph --gate-action retry|skip|abort');
    expect(text).not.toMatch(/^#|\*\*/m);
    expect(text.split('\n').length).toBeLessThanOrEqual(16);
  });

  it('without a terminal it says nobody can answer here and how to answer for a later run', () => {
    const text = formatEscalationSummary({ result, attempts: 3, maxAttempts: 3, tty: false });
    expect(text).toContain('Nobody is at this terminal');
    expect(text).toContain('ralph --gate-action retry|skip|abort');
  });

  it('shows at most five lines of output, each cut to fit', () => {
    const long = { ...result, stdout: Array.from({ length: 40 }, (_, i) => `line ${i} ${'x'.repeat(200)}`).join('\n') };
    const text = formatEscalationSummary({ result: long, attempts: 1, maxAttempts: 1, tty: true });
    expect(text).toContain('line 39');
    expect(text).not.toContain('line 34 ');
    const outputLines = text.split('\n').filter((l) => l.startsWith('     line'));
    expect(outputLines).toHaveLength(5);
    expect(Math.max(...outputLines.map((l) => l.length))).toBeLessThanOrEqual(125);
  });
});
