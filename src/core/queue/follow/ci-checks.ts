/**
 * What the checks of one commit say, from GitHub's two kinds of them: check
 * runs (GitHub Actions and other apps) and commit statuses (older CI
 * services). Pure: the caller fetches both lists and this decides whether the
 * commit passed, failed, is still being checked, or has no checks at all.
 */
export type CheckState = 'pending' | 'success' | 'failure';

export interface CiCheck {
  name: string;
  kind: 'check run' | 'status';
  state: CheckState;
  /** The check run's conclusion or the status's state, as GitHub gave it. */
  detail: string;
  title?: string;
  summary?: string;
  text?: string;
  /** `path:line level: message`, for a check run that has annotations. */
  annotations?: string[];
  /** The check run's id (annotations are fetched by it). */
  id?: number;
  annotationsCount?: number;
}

/** A check run as the REST API returns it (the fields Ralph reads). */
export interface RawCheckRun {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  output?: { title?: string | null; summary?: string | null; text?: string | null; annotations_count?: number };
}

/** One status of the combined status endpoint (the newest per context). */
export interface RawStatus {
  context: string;
  state: string;
  description?: string | null;
}

/** Conclusions that mean the check failed; neutral and skipped pass, as GitHub's merge box counts them. */
const FAILED_CONCLUSIONS = new Set(['failure', 'timed_out', 'cancelled', 'action_required', 'stale', 'startup_failure']);

export function checkRunState(run: RawCheckRun): CheckState {
  if (run.status !== 'completed') return 'pending';
  return FAILED_CONCLUSIONS.has(run.conclusion ?? '') ? 'failure' : 'success';
}

export function statusState(status: RawStatus): CheckState {
  if (status.state === 'success') return 'success';
  if (status.state === 'failure' || status.state === 'error') return 'failure';
  return 'pending';
}

/** The checks of a commit: a check run re-run under the same name counts by its newest run only. */
export function collectChecks(runs: readonly RawCheckRun[], statuses: readonly RawStatus[]): CiCheck[] {
  const newest = new Map<string, RawCheckRun>();
  for (const run of runs) {
    const seen = newest.get(run.name);
    if (!seen || run.id > seen.id) newest.set(run.name, run);
  }
  const checks: CiCheck[] = [...newest.values()].map((run) => {
    const out = run.output ?? {};
    return {
      name: run.name,
      kind: 'check run',
      state: checkRunState(run),
      detail: run.status === 'completed' ? (run.conclusion ?? 'completed') : run.status,
      id: run.id,
      ...(out.title ? { title: out.title } : {}),
      ...(out.summary ? { summary: out.summary } : {}),
      ...(out.text ? { text: out.text } : {}),
      ...(out.annotations_count ? { annotationsCount: out.annotations_count } : {}),
    };
  });
  const contexts = new Set<string>();
  for (const status of statuses) {
    if (contexts.has(status.context)) continue;
    contexts.add(status.context);
    checks.push({
      name: status.context,
      kind: 'status',
      state: statusState(status),
      detail: status.state,
      ...(status.description ? { summary: status.description } : {}),
    });
  }
  return checks;
}

/**
 * The commit's verdict. `none`: no check run and no status — GitHub's
 * combined status says `pending` with `total_count: 0` then, which is "no
 * status checks", not a check to wait for. A failure is only final once
 * nothing is pending, so one round fixes every failing check at once.
 */
export type ChecksVerdict = 'none' | 'pending' | 'passed' | 'failed';

export function checksVerdict(checks: readonly CiCheck[]): ChecksVerdict {
  if (checks.length === 0) return 'none';
  if (checks.some((check) => check.state === 'pending')) return 'pending';
  return checks.some((check) => check.state === 'failure') ? 'failed' : 'passed';
}

/** What the waiting does next, after one look at the checks. */
export type WaitStep = 'wait' | 'passed' | 'failed' | 'no-checks' | 'timed-out';

export interface WaitInput {
  verdict: ChecksVerdict;
  /** Looks taken so far, this one included. */
  polls: number;
  elapsedMs: number;
  timeoutMs: number;
}

/**
 * Checks appear a few seconds after a push (the CI has to pick the commit
 * up), so a commit without any is looked at this many times before Ralph
 * concludes the repository has none.
 */
export const NO_CHECKS_POLLS = 3;

export function nextWaitStep(input: WaitInput): WaitStep {
  if (input.verdict === 'passed' || input.verdict === 'failed') return input.verdict;
  if (input.verdict === 'none' && input.polls >= NO_CHECKS_POLLS) return 'no-checks';
  return input.elapsedMs >= input.timeoutMs ? 'timed-out' : 'wait';
}

/** `ci/test failure, lint success` — for notices and the queue's record. */
export function describeChecks(checks: readonly CiCheck[]): string {
  return checks.map((check) => `${check.name} ${check.state === 'pending' ? check.detail : check.state}`).join(', ');
}
