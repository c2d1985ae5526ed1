import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { asksForJson, reportError } from '../../../src/cli/error-report.js';
import { ExitCode, NotAProjectError, RalphError, UsageError } from '../../../src/errors.js';
import { badInput, ToolError } from '../../../src/features/agent-tools/test/tool-error.js';

const TEXT = { json: false, debug: false };
const JSON_MODE = { json: true, debug: false };

function document(stdout: string | undefined): unknown {
  expect(stdout).toBeDefined();
  expect(stdout?.endsWith('\n')).toBe(true);
  expect(stdout?.trimEnd().includes('\n')).toBe(false);
  return JSON.parse(stdout ?? '');
}

describe('reportError: one policy for every command', () => {
  it('a RalphError: its exit code, the message and the hint on stderr, nothing on stdout', () => {
    const r = reportError(new RalphError('Cannot list checkpoints: not a git repository', ExitCode.RuntimeError, 'Run git init.'), TEXT);
    expect(r).toEqual({ exitCode: 1, stderr: 'Error: Cannot list checkpoints: not a git repository\nRun git init.\n' });
  });

  it('with --json: one document on stdout, the same words on stderr for a person', () => {
    const r = reportError(new RalphError('no metrics', ExitCode.RuntimeError, 'run ralph first'), JSON_MODE);
    expect(document(r.stdout)).toEqual({ error: { code: 1, kind: 'runtime', message: 'no metrics', hint: 'run ralph first' } });
    expect(r.stderr).toBe('Error: no metrics\nrun ralph first\n');
  });

  it.each([
    [new UsageError('bad flag'), 2, 'usage'],
    [new NotAProjectError('/x is not a Ralph project'), 1, 'not_a_project'],
    [new RalphError('interrupted', ExitCode.Sigterm), 143, 'interrupted'],
    [new RalphError('limit', ExitCode.LimitReached), 7, 'runtime'],
  ])('%s → exit %i, kind %s', (error, code, kind) => {
    const r = reportError(error, JSON_MODE);
    expect(r.exitCode).toBe(code);
    expect(document(r.stdout)).toMatchObject({ error: { code, kind, message: error.message } });
  });

  it('a hint-less error has no hint key', () => {
    expect(document(reportError(new UsageError('x'), JSON_MODE).stdout)).toEqual({ error: { code: 2, kind: 'usage', message: 'x' } });
  });

  it('a commander error that escaped the factory: help and version end well, the rest is a usage error', () => {
    expect(reportError(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), JSON_MODE)).toEqual({ exitCode: 0, stderr: '' });
    const r = reportError(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"), JSON_MODE);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("Error: unknown option '--x'\n");
    expect(document(r.stdout)).toEqual({ error: { code: 2, kind: 'usage', message: "unknown option '--x'" } });
  });

  it('a test tool error is its own JSON document, with or without --json; bad input exits 2', () => {
    const input = reportError(badInput('unknown tool "x"', { available_tools: ['a'] }), TEXT);
    expect(input.exitCode).toBe(2);
    expect(JSON.parse(input.stdout ?? '')).toEqual({ error: { code: 'bad_input', message: 'unknown tool "x"', available_tools: ['a'] } });
    expect(input.stderr).toBe('Error: unknown tool "x"\n');
    const failed = reportError(new ToolError('unknown_workspace', 'no such workspace', {}, 'known workspaces: a'), TEXT);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toBe('Error: no such workspace\nknown workspaces: a\n');
  });

  it('an unexpected error is a bug: exit 1, said so, the stack only with RALPH_DEBUG', () => {
    const bug = new TypeError('x is undefined');
    const plain = reportError(bug, TEXT);
    expect(plain.exitCode).toBe(1);
    expect(plain.stderr).toMatch(/^Unexpected error: x is undefined\nThis is a bug in Ralph/);
    expect(plain.stderr).not.toContain('at ');
    expect(reportError(bug, { json: false, debug: true }).stderr).toContain(bug.stack ?? 'no stack');
    expect(document(reportError(bug, JSON_MODE).stdout)).toMatchObject({ error: { code: 1, kind: 'internal', message: 'x is undefined' } });
  });

  it('keeps the fields an older JSON error of the command had, beside the envelope', () => {
    const r = reportError(new UsageError('Ralph already enabled.'), {
      ...JSON_MODE,
      jsonErrorFields: (e) => ({ success: false, code: e.code, message: e.message }),
    });
    expect(document(r.stdout)).toEqual({
      success: false,
      code: 2,
      message: 'Ralph already enabled.',
      error: { code: 2, kind: 'usage', message: 'Ralph already enabled.' },
    });
  });
});

describe('asksForJson', () => {
  it.each([
    [['--status', '--json'], true],
    [['--json'], true],
    [['--status'], false],
    [['run', 'task', '--', '--json'], false],
    [['--jsonx'], false],
  ])('%j → %s', (argv, expected) => {
    expect(asksForJson(argv)).toBe(expected);
  });
});
