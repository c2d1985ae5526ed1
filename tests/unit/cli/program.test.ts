import { describe, expect, it } from 'vitest';
import { EXIT_REASONS } from '../../../src/core/exit-reasons.js';
import { ExitCode, UsageError } from '../../../src/errors.js';
import { LOOP_EXIT_CODES } from '../../../src/ui/help-footer.js';
import { createCommand, parseArgv, parseFlagValue } from '../../../src/cli/program.js';
import { integer } from '../../../src/config/value-types.js';

function capture(): { out: string[]; err: string[]; io: { out(t: string): void; err(t: string): void } } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t) => out.push(t), err: (t) => err.push(t) } };
}

const HELP = {
  description: 'does a thing',
  notes: '\nA note between the options and the examples.\n',
  examples: [['tool --x', 'an example']] as const,
  exitCodes: [
    ['0', 'fine'],
    ['2', 'usage error'],
  ] as const,
};

describe('createCommand', () => {
  it('prints help on stdout: options, notes, examples, exit codes last', async () => {
    const c = capture();
    const program = createCommand('tool', c.io, { ...HELP, version: '1.2.3' }).option('--x', 'an option');
    expect(await parseArgv(program, ['--help'])).toBe(false);
    const text = c.out.join('');
    expect(c.err).toEqual([]);
    expect(text).toContain('-V, --version');
    expect(text).toContain('-h, --help');
    const order = ['--x', 'A note between', 'Examples:', '$ tool --x', 'Exit codes:', '2  usage error'].map((s) => text.indexOf(s));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('prints the version on stdout', async () => {
    const c = capture();
    expect(await parseArgv(createCommand('tool', c.io, { ...HELP, version: '1.2.3' }), ['-V'])).toBe(false);
    expect(c.out.join('')).toBe('1.2.3\n');
  });

  it('throws every parse error as a UsageError naming the command the user typed; commander prints nothing', async () => {
    const c = capture();
    const program = createCommand('tool', c.io, HELP);
    program.addCommand(createCommand('sub', c.io, HELP).argument('<thing>'));
    const unknown = await parseArgv(program, ['--nope']).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UsageError);
    expect(unknown).toMatchObject({ message: "unknown option '--nope'", hint: 'Run tool --help to see every option.', exitCode: 2 });
    const missing = await parseArgv(program, ['sub']).catch((e: unknown) => e);
    expect(missing).toMatchObject({ message: "missing required argument 'thing'", hint: 'Run tool sub --help to see every option.' });
    expect(c.out).toEqual([]);
    expect(c.err).toEqual([]);
  });

  it('refuses arguments nobody asked for', async () => {
    const extra = await parseArgv(createCommand('tool', capture().io, HELP), ['stray']).catch((e: unknown) => e);
    expect(extra).toBeInstanceOf(UsageError);
  });
});

describe('parseFlagValue', () => {
  it('reads a value with its config type and names the flag when it is wrong', () => {
    expect(parseFlagValue('--timeout', '30', integer(1, 120))).toBe(30);
    expect(() => parseFlagValue('--timeout', 'soon', integer(1, 120))).toThrow(/invalid value for --timeout: "soon"; expected/);
  });
});

describe('the exit codes of a loop run in --help', () => {
  it('list every exit code, and every code a loop can stop with, once and in order', () => {
    const codes = LOOP_EXIT_CODES.map(([code]) => Number(code));
    expect(codes).toEqual([...new Set(Object.values(ExitCode))].sort((a, b) => a - b));
    for (const reason of Object.values(EXIT_REASONS)) expect(codes).toContain(reason.exitCode);
    for (const [, meaning] of LOOP_EXIT_CODES) expect(meaning.length).toBeGreaterThan(5);
  });
});
