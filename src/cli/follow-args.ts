import type { Command } from 'commander';
import { UsageError } from '../errors.js';

/**
 * The flags of `ralph queue run --pr --follow-checks`: how often and how
 * long the checks of a pushed commit are waited for, and how many times the
 * loop may run again for failing checks or review comments.
 */
export interface FollowArgs {
  reviews: boolean;
  intervalMs: number;
  timeoutMs: number;
  maxRounds: number;
}

export const DEFAULT_CHECKS_INTERVAL_S = 30;
export const DEFAULT_CHECKS_TIMEOUT_MIN = 60;
export const DEFAULT_FOLLOW_MAX = 3;
const MAX_CHECKS_INTERVAL_S = 3600;
const MAX_CHECKS_TIMEOUT_MIN = 24 * 60;
const MAX_FOLLOW_ROUNDS = 20;

export function addFollowOptions(command: Command): Command {
  return command
    .option(
      '--follow-checks',
      "with --pr: wait for the pull request's checks; on a failure run the loop again with their output and push (the same pull request)",
    )
    .option('--follow-reviews', 'with --follow-checks: also act on review comments and change requests, and reply to each comment acted on')
    .option(
      '--checks-interval <seconds>',
      `with --follow-checks: seconds between looks at the checks, fractions allowed (default ${DEFAULT_CHECKS_INTERVAL_S})`,
    )
    .option('--checks-timeout <minutes>', `with --follow-checks: how long to wait for one commit's checks (default ${DEFAULT_CHECKS_TIMEOUT_MIN})`)
    .option('--follow-max <n>', `with --follow-checks: run the loop again at most n times, 0-${MAX_FOLLOW_ROUNDS} (default ${DEFAULT_FOLLOW_MAX})`);
}

/** A positive decimal number (`30`, `0.05`) up to `max`, or a usage error saying what is accepted. */
function positiveNumber(flag: string, raw: unknown, max: number, unit: string, usage: string): number {
  const text = String(raw).trim();
  const value = /^(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
  if (!(value > 0 && value <= max))
    throw new UsageError(`invalid value for ${flag}: "${text}"; expected ${unit} greater than 0 and at most ${max}, such as 30 or 0.5`, usage);
  return value;
}

export function readFollowArgs(o: Record<string, unknown>, pr: boolean, usage: string): FollowArgs | undefined {
  const follow = o['followChecks'] === true;
  const dependent = (['followReviews', 'checksInterval', 'checksTimeout', 'followMax'] as const).filter((name) => o[name] !== undefined && o[name] !== false);
  if (!follow) {
    const first = dependent[0];
    if (first !== undefined) throw new UsageError(`--${first.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} goes with --follow-checks.`, usage);
    return undefined;
  }
  if (!pr) throw new UsageError('--follow-checks goes with --pr: the checks followed are those of the pull request.', usage);
  let maxRounds = DEFAULT_FOLLOW_MAX;
  if (o['followMax'] !== undefined) {
    const text = String(o['followMax']).trim();
    maxRounds = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!(maxRounds >= 0 && maxRounds <= MAX_FOLLOW_ROUNDS))
      throw new UsageError(`invalid value for --follow-max: "${text}"; expected a whole number from 0 to ${MAX_FOLLOW_ROUNDS}`, usage);
  }
  const interval =
    o['checksInterval'] === undefined
      ? DEFAULT_CHECKS_INTERVAL_S
      : positiveNumber('--checks-interval', o['checksInterval'], MAX_CHECKS_INTERVAL_S, 'seconds', usage);
  const timeout =
    o['checksTimeout'] === undefined
      ? DEFAULT_CHECKS_TIMEOUT_MIN
      : positiveNumber('--checks-timeout', o['checksTimeout'], MAX_CHECKS_TIMEOUT_MIN, 'minutes', usage);
  return { reviews: o['followReviews'] === true, intervalMs: Math.round(interval * 1000), timeoutMs: Math.round(timeout * 60_000), maxRounds };
}
