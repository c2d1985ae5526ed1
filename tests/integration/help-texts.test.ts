// Every command's --help, as the built CLI prints it: each ends with a few
// examples and the meaning of its exit codes, and none uses words of
// documents the user never saw.
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

export const FOREIGN_WORDS = /\bseeds?\b|\bhats?\b|scratchpad|U§|spec §|P§/i;

const COMMANDS: Array<[string, string[]]> = [
  ['ralph', ['--help']],
  ['ralph', ['run', '--help']],
  ['ralph', ['demo', '--help']],
  ['ralph', ['test', '--help']],
  ['ralph', ['mcp', '--help']],
  ['ralph', ['queue', '--help']],
  ['ralph', ['queue', 'add', '--help']],
  ['ralph', ['queue', 'list', '--help']],
  ['ralph', ['queue', 'status', '--help']],
  ['ralph', ['queue', 'remove', '--help']],
  ['ralph', ['queue', 'clear', '--help']],
  ['ralph', ['dashboard', '--help']],
  ['ralph', ['queue', 'run', '--help']],
  ['ralph', ['queue', 'clean', '--help']],
  ['ralph-setup', ['--help']],
  ['ralph-enable', ['--help']],
  ['ralph-import', ['--help']],
  ['ralph-monitor', ['--help']],
  ['ralph-stats', ['--help']],
];

/** The lines of a section: from its heading to the next blank line. */
function section(text: string, heading: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l.trim() === '');
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

describe('--help of every command', () => {
  it.each(COMMANDS)('%s %j ends with 2-4 examples and the exit codes', async (name, args) => {
    const r = await runCli(name, args, tempDir('help-'), cleanEnv());
    const out = String(r.stdout);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const examples = section(out, 'Examples:').filter((l) => l.trimStart().startsWith('$ '));
    expect(examples.length, out).toBeGreaterThanOrEqual(2);
    expect(examples.length, out).toBeLessThanOrEqual(4);
    for (const line of examples) expect(line).toContain(name);
    const codes = section(out, 'Exit codes:');
    expect(codes.length, out).toBeGreaterThanOrEqual(2);
    for (const line of codes) expect(line).toMatch(/^ {2}\d+(\/\d+)? +\S/);
    expect(codes.some((l) => /^ {2}0 /.test(l))).toBe(true);
    // Exit codes are the last section: nothing but blank lines after it.
    expect(
      out
        .slice(out.indexOf('Exit codes:'))
        .split('\n')
        .slice(codes.length + 1)
        .join('')
        .trim(),
    ).toBe('');
    expect(out.indexOf('Examples:')).toBeLessThan(out.indexOf('Exit codes:'));
    expect(out).not.toMatch(FOREIGN_WORDS);
  });

  it('ralph run --help documents every key of the task syntax', async () => {
    const out = String((await runCli('ralph', ['run', '--help'], tempDir('help-'), cleanEnv())).stdout);
    for (const key of [
      'verify:"COMMAND"',
      'max:N',
      'timeout:SECONDS',
      'checkpoint:true',
      'rollback:true',
      'loop:true',
      'workingDir:DIR',
      ':fast',
      ':full',
      ':extended',
      '::',
    ]) {
      expect(out).toContain(key);
    }
    expect(out).toMatch(/6 +verify gate aborted/);
  });
});
