import { checksVerdict, collectChecks, describeChecks, nextWaitStep, type CiCheck, type WaitStep } from '../../core/queue/follow/ci-checks.js';
import { errorMessage } from '../../errors.js';
import type { Clock } from '../../ports.js';
import type { GithubClient } from './github/github-client.js';

/**
 * `--follow-checks`: waits for the checks of one pushed commit — its check
 * runs and its commit statuses, asked of GitHub every interval — until they
 * all completed, one failed with nothing left pending, the repository shows
 * it has none, or the timeout passed. The clock is a port, so tests of the
 * waiting run without real timers. A look GitHub answers with an error is
 * said and retried at the next interval: the checks are still running.
 */
export interface CheckWaitInput {
  client: Pick<GithubClient, 'listCheckRuns' | 'listStatuses' | 'listAnnotations'>;
  clock: Clock;
  sha: string;
  intervalMs: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** Each look whose checks differ from the previous one's. */
  onChecks(checks: readonly CiCheck[]): void | Promise<void>;
  notice(message: string): void;
}

export interface CheckWaitResult {
  step: Exclude<WaitStep, 'wait'>;
  checks: CiCheck[];
}

/** GitHub errors in a row that end the waiting: the API is down or the token lost its rights. */
const MAX_FAILED_LOOKS = 5;

async function look(input: CheckWaitInput): Promise<CiCheck[]> {
  const [runs, statuses] = await Promise.all([input.client.listCheckRuns(input.sha), input.client.listStatuses(input.sha)]);
  return collectChecks(runs, statuses);
}

export async function waitForChecks(input: CheckWaitInput): Promise<CheckWaitResult> {
  const started = input.clock.now();
  let polls = 0;
  let failedLooks = 0;
  let shown = '';
  let checks: CiCheck[] = [];
  for (;;) {
    try {
      checks = await look(input);
      failedLooks = 0;
      polls += 1;
    } catch (error) {
      failedLooks += 1;
      if (failedLooks >= MAX_FAILED_LOOKS) throw error;
      input.notice(`could not read the checks of ${input.sha.slice(0, 12)} (${errorMessage(error)}); trying again`);
    }
    const seen = describeChecks(checks);
    if (seen !== shown) {
      shown = seen;
      await input.onChecks(checks);
    }
    const step = nextWaitStep({ verdict: checksVerdict(checks), polls, elapsedMs: input.clock.now() - started, timeoutMs: input.timeoutMs });
    if (step !== 'wait') return { step, checks };
    await input.clock.sleep(input.intervalMs, input.signal);
  }
}

/** The failed checks, each check run with its annotations when it has some (a failure to read them is no reason to stop). */
export async function failedChecks(client: Pick<GithubClient, 'listAnnotations'>, checks: readonly CiCheck[]): Promise<CiCheck[]> {
  const failed = checks.filter((check) => check.state === 'failure');
  return Promise.all(
    failed.map(async (check) => {
      if (check.id === undefined || !check.annotationsCount) return check;
      try {
        return { ...check, annotations: await client.listAnnotations(check.id) };
      } catch {
        return check;
      }
    }),
  );
}
