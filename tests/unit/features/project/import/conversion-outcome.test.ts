import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentResult } from '../../../../../src/agent-result.js';
import { readClaudeStdout } from '../../../support/read-stdout.js';
import type { ClaudeRun } from '../../../../../src/backends/claude/classify-claude-call.js';
import { describeConversionFailure, describeDenials } from '../../../../../src/features/project/import/conversion-outcome.js';

const fixture = (name: string): string => readFileSync(join('tests/fixtures/claude-cli', name), 'utf8');
/** The result the Claude backend reports for a conversion that printed `stdout`. */
const run = ({ stdout, ...over }: Partial<Omit<ClaudeRun, 'output'>> & { stdout?: string }): AgentResult =>
  readClaudeStdout(
    stdout ?? fixture('json-success-tool-use.json'),
    { end: 'exited', exitCode: 0, durationMs: 1, stderrTail: '', ...over },
    Date.parse('2026-11-22T12:00:00Z'),
    () => 'UTC',
  );

describe('describeConversionFailure', () => {
  it('accepts a successful JSON result and plain text output', () => {
    expect(describeConversionFailure(run({}), 60_000)).toBeUndefined();
    expect(describeConversionFailure(run({ stdout: fixture('text-success.txt') }), 60_000)).toBeUndefined();
  });

  it.each([
    ['json-error-auth.json', /Claude reported an error \(API status 401\): Invalid API key/],
    ['json-error-usage-limit.json', /Claude reported an error/],
    ['json-error-server-500.json', /Claude reported an error/],
  ])('treats is_error in %s as a failure even with exit code 0', (name, message) => {
    const failure = describeConversionFailure(run({ stdout: fixture(name) }), 60_000);
    expect(failure?.message).toMatch(message);
    expect(failure?.exitCode).toBe(1);
  });

  it('reports a non-zero exit with the last stderr line', () => {
    expect(describeConversionFailure(run({ exitCode: 3, stdout: '', stderrTail: 'warn\nboom: no config\n' }), 60_000)).toEqual({
      message: 'Claude exited with code 3: boom: no config',
      exitCode: 1,
    });
  });

  it('reports a timeout with the limit, an interrupt, and a missing command as a usage problem', () => {
    expect(describeConversionFailure(run({ end: 'timeout', exitCode: undefined }), 90_000)?.message).toBe('Claude did not finish the conversion within 1m 30s');
    expect(describeConversionFailure(run({ end: 'interrupted', exitCode: undefined }), 1)?.exitCode).toBe(130);
    expect(describeConversionFailure(run({ end: 'spawn_failed', exitCode: undefined, failure: 'command not found: claude', fatal: true }), 1)).toEqual({
      message: 'Claude Code could not be started: command not found: claude',
      exitCode: 2,
      hint: 'Install Claude Code with `npm install -g @anthropic-ai/claude-code` and log in (run `claude` once), or set CLAUDE_CODE_CMD to the command that starts it.',
    });
  });
});

describe('describeDenials', () => {
  it('is nothing without denials', () => {
    expect(describeDenials([])).toBeUndefined();
  });

  it('names each denied tool once, with its command', () => {
    expect(describeDenials([{ tool: 'Edit' }, { tool: 'Bash', detail: 'rm -rf .ralph' }, { tool: 'Edit' }])).toBe(
      'Claude Code was denied Edit, Bash (rm -rf .ralph): ralph-import allows only Read, Write, Edit and mkdir.',
    );
  });

  it('keeps a long list short', () => {
    const many = Array.from({ length: 8 }, (_, i) => ({ tool: 'Bash', detail: `cmd${i}` }));
    expect(describeDenials(many)).toContain('and 3 more');
  });
});
