import { describe, expect, it } from 'vitest';
import { parseRalphArgs, type RalphArgs } from '../../../src/cli/ralph-args.js';
import { UsageError } from '../../../src/errors.js';

const io = { out: () => undefined, err: () => undefined };

async function runArgs(...argv: string[]): Promise<unknown> {
  const args: RalphArgs | undefined = await parseRalphArgs(['queue', 'run', ...argv], '9.9.9', io);
  return args?.queue?.sub === 'run' ? args.queue.run.follow : 'not parsed';
}

async function refusal(...argv: string[]): Promise<string> {
  const error = await parseRalphArgs(['queue', 'run', ...argv], '9.9.9', io).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
}

describe('ralph queue run --follow-checks: flags', () => {
  it('follows nothing without --follow-checks', async () => {
    expect(await runArgs('--pr')).toBeUndefined();
  });

  it('defaults: every 30 s, for 60 min, at most 3 more rounds, no reviews', async () => {
    expect(await runArgs('--pr', '--follow-checks')).toEqual({ reviews: false, intervalMs: 30_000, timeoutMs: 3_600_000, maxRounds: 3 });
  });

  it('takes fractions of a second and of a minute', async () => {
    expect(await runArgs('--pr', '--follow-checks', '--follow-reviews', '--checks-interval', '0.05', '--checks-timeout', '0.5', '--follow-max', '0')).toEqual({
      reviews: true,
      intervalMs: 50,
      timeoutMs: 30_000,
      maxRounds: 0,
    });
  });

  it.each([
    [['--follow-checks'], '--follow-checks goes with --pr: the checks followed are those of the pull request.'],
    [['--pr', '--follow-reviews'], '--follow-reviews goes with --follow-checks.'],
    [['--pr', '--checks-interval', '5'], '--checks-interval goes with --follow-checks.'],
    [['--pr', '--follow-max', '2'], '--follow-max goes with --follow-checks.'],
    [
      ['--pr', '--follow-checks', '--checks-interval', '0'],
      'invalid value for --checks-interval: "0"; expected seconds greater than 0 and at most 3600, such as 30 or 0.5',
    ],
    [
      ['--pr', '--follow-checks', '--checks-interval', 'fast'],
      'invalid value for --checks-interval: "fast"; expected seconds greater than 0 and at most 3600, such as 30 or 0.5',
    ],
    [
      ['--pr', '--follow-checks', '--checks-interval', '-1'],
      'invalid value for --checks-interval: "-1"; expected seconds greater than 0 and at most 3600, such as 30 or 0.5',
    ],
    [
      ['--pr', '--follow-checks', '--checks-timeout', '1e3'],
      'invalid value for --checks-timeout: "1e3"; expected minutes greater than 0 and at most 1440, such as 30 or 0.5',
    ],
    [['--pr', '--follow-checks', '--follow-max', '2.5'], 'invalid value for --follow-max: "2.5"; expected a whole number from 0 to 20'],
    [['--pr', '--follow-checks', '--follow-max', '21'], 'invalid value for --follow-max: "21"; expected a whole number from 0 to 20'],
  ])('refuses %j', async (flags, message) => {
    expect(await refusal(...flags)).toBe(message);
  });
});
