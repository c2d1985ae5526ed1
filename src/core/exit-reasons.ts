import { ExitCode } from '../errors.js';

/**
 * Why a loop stopped. The original's strings are kept so tools that
 * read status.json keep working; the rest are ours.
 */
export type ExitReason =
  | 'permission_denied'
  | 'plan_complete'
  | 'project_complete'
  | 'completion_signals'
  | 'test_saturation'
  | 'safety_circuit_breaker'
  | 'circuit_breaker_open'
  | 'max_loops'
  | 'max_cost'
  | 'max_runtime'
  | 'verify_aborted'
  | 'usage_limit'
  | 'api_rate_limit'
  | 'interrupted'
  | 'stop_requested'
  | 'integrity_failure'
  | 'agent_failure'
  | 'checkpoint_failed'
  | 'rollback_failed'
  | 'lock_lost'
  | 'dry_run'
  | 'quota_reserved'
  | 'max_tokens'
  | 'review_rejected';

interface ReasonInfo {
  exitCode: number;
  /** status.json `status` when the loop ends for this reason. */
  status: 'completed' | 'halted' | 'stopped' | 'interrupted' | 'error';
  /** status.json `last_action`. */
  lastAction: string;
  /** One line for the final log entry. */
  describe: string;
}

export const EXIT_REASONS: Record<ExitReason, ReasonInfo> = {
  plan_complete: { exitCode: ExitCode.Completed, status: 'completed', lastAction: 'graceful_exit', describe: 'every blocking task in fix_plan.md is checked' },
  project_complete: {
    exitCode: ExitCode.Completed,
    status: 'completed',
    lastAction: 'graceful_exit',
    describe: 'the agent reported EXIT_SIGNAL: true and the evidence agrees',
  },
  completion_signals: {
    exitCode: ExitCode.Completed,
    status: 'completed',
    lastAction: 'graceful_exit',
    describe: 'repeated completion signals in the agent output',
  },
  test_saturation: { exitCode: ExitCode.Completed, status: 'completed', lastAction: 'graceful_exit', describe: 'three iterations in a row only ran tests' },
  dry_run: { exitCode: ExitCode.Completed, status: 'completed', lastAction: 'dry_run_complete', describe: 'dry run finished' },
  stop_requested: { exitCode: ExitCode.Completed, status: 'stopped', lastAction: 'stopped', describe: 'stopped on request (ralph --stop)' },
  safety_circuit_breaker: {
    exitCode: ExitCode.CircuitOpen,
    status: 'halted',
    lastAction: 'safety_circuit_breaker',
    describe: 'five iterations claimed completion without being allowed to exit',
  },
  circuit_breaker_open: { exitCode: ExitCode.CircuitOpen, status: 'halted', lastAction: 'circuit_breaker_open', describe: 'the circuit breaker opened' },
  permission_denied: {
    exitCode: ExitCode.PermissionDenied,
    status: 'halted',
    lastAction: 'permission_denied',
    describe: 'the agent was denied a tool it needs',
  },
  usage_limit: { exitCode: ExitCode.UsageLimit, status: 'stopped', lastAction: 'api_limit_exit', describe: "the agent's usage limit reached" },
  api_rate_limit: {
    exitCode: ExitCode.UsageLimit,
    status: 'stopped',
    lastAction: 'api_rate_limit',
    describe: 'the API kept refusing requests (rate limit / overload)',
  },
  verify_aborted: {
    exitCode: ExitCode.VerifyAborted,
    status: 'halted',
    lastAction: 'verify_aborted',
    describe: 'the verify gate was aborted after its last attempt',
  },
  max_loops: { exitCode: ExitCode.LimitReached, status: 'stopped', lastAction: 'limit_reached', describe: 'the maximum number of iterations was reached' },
  max_cost: { exitCode: ExitCode.LimitReached, status: 'stopped', lastAction: 'limit_reached', describe: 'the cost limit was reached' },
  max_runtime: { exitCode: ExitCode.LimitReached, status: 'stopped', lastAction: 'limit_reached', describe: 'the runtime limit was reached' },
  interrupted: { exitCode: ExitCode.Sigint, status: 'interrupted', lastAction: 'interrupted', describe: 'interrupted' },
  integrity_failure: { exitCode: ExitCode.RuntimeError, status: 'halted', lastAction: 'integrity_failure', describe: 'required Ralph files are missing' },
  agent_failure: { exitCode: ExitCode.RuntimeError, status: 'error', lastAction: 'agent_failure', describe: 'the agent could not be run' },
  checkpoint_failed: {
    exitCode: ExitCode.RuntimeError,
    status: 'halted',
    lastAction: 'checkpoint_failed',
    describe: 'no git checkpoint could be made before an iteration that needs one',
  },
  rollback_failed: {
    exitCode: ExitCode.RuntimeError,
    status: 'halted',
    lastAction: 'rollback_failed',
    describe: 'a failed attempt could not be rolled back completely, so the loop does not go on from a half-restored tree',
  },
  lock_lost: {
    exitCode: ExitCode.RuntimeError,
    status: 'error',
    lastAction: 'lock_lost',
    describe:
      "the project lock was removed or taken over by another process; this loop stopped so that two loops never work on the project at once. Check that no other Ralph runs here ('ralph --status'), then run 'ralph' again",
  },
  quota_reserved: {
    exitCode: ExitCode.UsageLimit,
    status: 'stopped',
    lastAction: 'quota_reserved',
    describe: 'a subscription window reached --stop-at; the rest of it is kept for you',
  },
  max_tokens: { exitCode: ExitCode.LimitReached, status: 'stopped', lastAction: 'limit_reached', describe: 'the token limit (--max-tokens) was reached' },
  review_rejected: {
    exitCode: ExitCode.VerifyAborted,
    status: 'halted',
    lastAction: 'review_rejected',
    describe: 'the reviewer asked for changes --review-max times in a row',
  },
};

/** The interrupt reason Ralph gives when its project lock was lost (the other reasons are signal names). */
export const LOCK_LOST = 'lock_lost';

export function isCompletionReason(reason: ExitReason): boolean {
  return reason === 'plan_complete' || reason === 'project_complete' || reason === 'completion_signals' || reason === 'test_saturation';
}
