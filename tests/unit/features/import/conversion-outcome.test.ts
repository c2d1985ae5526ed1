import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanOutput } from '../../../../src/core/output-scanner.js';
import { describeConversionFailure, describeDenials } from '../../../../src/features/import/conversion-outcome.js';
import type { ConversionRun } from '../../../../src/features/import/run-conversion.js';

const fixture = (name: string): string => readFileSync(join('tests/fixtures/claude-cli', name), 'utf8');
const run = (over: Partial<ConversionRun> & { stdout?: string }): ConversionRun => ({
  end: 'exited',
  exitCode: 0,
  output: scanOutput(over.stdout ?? fixture('json-success-tool-use.json')),
  stderrTail: '',
  ...over,
});

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
    expect(describeConversionFailure(run({ exitCode: 3, stdout: '', stderrTail: 'warn\nboom: no config\n' }), 60_000)).toEqual({ message: 'Claude exited with code 3: boom: no config', exitCode: 1 });
  });

  it('reports a timeout with the limit, an interrupt, and a missing command as a usage problem', () => {
    expect(describeConversionFailure(run({ end: 'timeout', exitCode: undefined }), 90_000)?.message).toBe('Claude did not finish the conversion within 1m 30s');
    expect(describeConversionFailure(run({ end: 'interrupted', exitCode: undefined }), 1)?.exitCode).toBe(130);
    expect(describeConversionFailure(run({ end: 'spawn_failed', exitCode: undefined, failure: 'command not found: claude' }), 1)).toEqual({
      message: 'Claude Code could not be started: command not found: claude',
      exitCode: 2,
    });
  });
});

describe('describeDenials', () => {
  it('is nothing without denials', () => {
    expect(describeDenials([])).toBeUndefined();
  });

  it('names each denied tool once, with its command', () => {
    expect(describeDenials([{ toolName: 'Edit' }, { toolName: 'Bash', command: 'rm -rf .ralph' }, { toolName: 'Edit' }])).toBe(
      'Claude Code was denied Edit, Bash (rm -rf .ralph): ralph-import allows only Read, Write, Edit and mkdir.',
    );
  });

  it('keeps a long list short', () => {
    const many = Array.from({ length: 8 }, (_, i) => ({ toolName: 'Bash', command: `cmd${i}` }));
    expect(describeDenials(many)).toContain('and 3 more');
  });
});
