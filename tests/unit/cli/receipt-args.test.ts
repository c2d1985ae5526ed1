import { describe, expect, it } from 'vitest';
import { parseRalphArgs, type RalphArgs } from '../../../src/cli/ralph-args.js';
import { UsageError } from '../../../src/errors.js';

const io = { out: () => undefined, err: () => undefined };

async function parse(...argv: string[]): Promise<RalphArgs> {
  const args = await parseRalphArgs(argv, '9.9.9', io);
  if (!args) throw new Error(`nothing parsed for ${argv.join(' ')}`);
  return args;
}

async function refusal(...argv: string[]): Promise<string> {
  const error = await parseRalphArgs(argv, '9.9.9', io).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
}

describe('--fresh and --inspect --receipt', () => {
  it('--fresh starts a new run, for the plan loop and for ralph run (before or after the task)', async () => {
    expect((await parse('--fresh')).fresh).toBe(true);
    expect((await parse()).fresh).toBeUndefined();
    expect((await parse('run', 'fix it', '--fresh')).fresh).toBe(true);
    expect((await parse('--fresh', 'run', 'fix it')).fresh).toBe(true);
  });

  it('--receipt names a loop or last, with --inspect only', async () => {
    expect((await parse('--inspect', '--receipt', '3')).inspect.receipt).toBe(3);
    expect((await parse('--inspect', '--receipt', 'last')).inspect.receipt).toBe('last');
    expect(await refusal('--inspect', '--receipt', '0')).toContain('invalid value for --receipt: "0"; expected a loop number (1, 2, …) or last');
    expect(await refusal('--inspect', '--receipt', '-1')).toContain('--receipt');
    expect(await refusal('--receipt', '2')).toContain('--receipt goes with --inspect (ralph --inspect --receipt 3).');
  });
});
