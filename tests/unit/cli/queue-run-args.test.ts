import { describe, expect, it } from 'vitest';
import { configFlagsToArgv } from '../../../src/cli/forward-flags.js';
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

describe('ralph queue run: flags', () => {
  it('defaults to one loop at a time, nothing merged or proposed', async () => {
    expect((await parse('queue', 'run')).queue).toEqual({
      sub: 'run',
      run: { parallel: 1, merge: false, pr: false, commentProgress: false, autoClose: false, draftPr: false, flags: {} },
    });
  });

  it('reads the lifecycle flags and keeps loop flags for every item', async () => {
    const args = await parse(
      'queue',
      'run',
      '--parallel',
      '3',
      '--pr',
      '--draft-pr',
      '--auto-close',
      '--comment-progress',
      '--repo',
      'o/r',
      '--backend',
      'codex',
      '--max-cost',
      '5',
      '--max-loops',
      '4',
      '--no-continue',
    );
    expect(args.queue).toEqual({
      sub: 'run',
      run: {
        parallel: 3,
        merge: false,
        pr: true,
        commentProgress: true,
        autoClose: true,
        draftPr: true,
        repo: 'o/r',
        flags: { backend: 'codex', maxCostUsd: '5', maxLoops: '4', sessionContinuity: false },
      },
    });
  });

  it.each([
    [['--parallel', '0'], 'invalid value for --parallel: "0"; expected 1 to 16'],
    [['--parallel', 'many'], 'invalid value for --parallel: "many"; expected 1 to 16'],
    [['--parallel', '17'], 'invalid value for --parallel: "17"; expected 1 to 16'],
    [['--merge', '--pr'], 'choose one of --merge and --pr: merged work has no branch left to open a pull request for.'],
    [['--draft-pr'], '--draft-pr goes with --pr.'],
    [['--auto-close'], '--auto-close goes with --pr.'],
    [['--repo', 'o/r'], '--repo goes with --pr or --comment-progress.'],
  ])('refuses %j', async (flags, message) => {
    expect(await refusal('queue', 'run', ...flags)).toBe(message);
  });

  it('gives the loop flags back as typed, switches and repeats included', () => {
    expect(configFlagsToArgv({ backend: 'mock', maxLoops: '3', verbose: true, sessionContinuity: false, verifyEnv: ['A=1', 'B=2'] })).toEqual([
      '--no-continue',
      '--verbose',
      '--max-loops',
      '3',
      '--backend',
      'mock',
      '--verify-env',
      'A=1',
      '--verify-env',
      'B=2',
    ]);
  });
});

describe('--report FILE', () => {
  it('belongs to the loop and to ralph run', async () => {
    expect((await parse('--report', 'out.json')).report).toBe('out.json');
    expect(await parse('run', 'fix it', '--report', 'r.json', '--task-file', 'task.md')).toMatchObject({
      task: 'fix it',
      report: 'r.json',
      taskFile: 'task.md',
    });
    expect((await parse('--report', 'a.json', 'run', 'fix it')).report).toBe('a.json');
  });

  it('refuses an empty name', async () => {
    expect(await refusal('--report', ' ')).toBe('--report needs a file name, such as --report ralph-report.json.');
  });
});
