/**
 * status.json: the dashboard state other tools read. The first block of fields
 * is the original's shape; the rest are ours (cost, tokens, circuit,
 * verify gate, waiting reason, exit code).
 */
export interface StatusCircuit {
  state: string;
  reason: string;
  consecutive_no_progress: number;
  consecutive_failures: number;
  consecutive_same_error: number;
  total_opens: number;
}

export interface StatusTotals {
  cost_usd: number;
  /** Part of cost_usd is an estimate (tokens × list prices) because the agent reported no cost. */
  cost_estimated: boolean;
  /** Calls that used tokens but whose cost is unknown (no list price for the model): not counted in cost_usd. */
  cost_unknown_calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  num_turns: number;
  calls: number;
}

export interface StatusIteration {
  loop: number;
  /** How the agent call ended (`success` = it returned); not whether the iteration did its job. */
  outcome: string;
  /** What the iteration amounted to (`verify failed, rolled back`, `success, verify passed`); '' in files of older versions. */
  result: string;
  /** Whether the iteration counts as a success (a failed verify command never does); null in files of older versions. */
  success: boolean | null;
  duration_ms: number;
  cost_usd: number;
  cost_estimated: boolean;
  files_changed: number;
  exit_signal: boolean | null;
  summary: string;
  ended_at: string;
}

export interface StatusVerifyResult {
  passed: boolean;
  exit_code: number | null;
  timed_out: boolean;
  duration_ms: number;
  output_tail: string;
  at: string;
}

export interface StatusVerify {
  command: string;
  state: 'idle' | 'passing' | 'failing' | 'escalated' | 'skipped' | 'aborted';
  attempt: number;
  max_attempts: number;
  last: StatusVerifyResult | null;
}

export interface StatusWaiting {
  reason: 'rate_limit' | 'usage_limit' | 'api_retry' | 'verify_gate' | 'quota_window';
  until: string | null;
  message: string;
}

/** A subscription window as the agent's last report gave it (--park-at, --stop-at). */
export interface StatusQuotaWindow {
  /** five_hour, seven_day, … (named by its duration). */
  window: string;
  status: 'allowed' | 'warning' | 'rejected';
  used_percent: number | null;
  /** ISO 8601, or null when the agent gave none. */
  resets_at: string | null;
}

export interface StatusDocument {
  timestamp: string;
  loop_count: number;
  calls_made_this_hour: number;
  max_calls_per_hour: number;
  tokens_used_this_hour: number;
  max_tokens_per_hour: number;
  last_action: string;
  status: string;
  exit_reason: string;
  next_reset: string;
  sandbox: { provider: string };
  pid: number | null;
  started_at: string | null;
  project: string;
  backend: string;
  session_id: string | null;
  exit_code: number | null;
  message: string;
  circuit: StatusCircuit | null;
  totals: StatusTotals;
  limits: { max_loops: number; max_cost_usd: number; max_runtime_minutes: number };
  last_iteration: StatusIteration | null;
  verify: StatusVerify | null;
  waiting: StatusWaiting | null;
  /** The subscription windows the agent reported, the latest state of each ([] when it reported none). */
  quota_windows: StatusQuotaWindow[];
  /** The run's token limit (--max-tokens: input, output, cache reads and writes); 0 means none. */
  max_tokens: number;
  /** The reviewer pass (--review); null when the run reviews nothing. */
  review: StatusReview | null;
}

/** The reviewer pass of a run: its reviews, its latest verdict and findings, and what its calls used. */
export interface StatusReview {
  /** The reviewer's agent. */
  backend: string;
  /** Reviews made (each one agent call, counted in totals.calls too). */
  reviews: number;
  rejected_in_a_row: number;
  /** --review-max: rejections in a row that stop the loop. */
  max_rejected: number;
  /** The latest verdict ('' before the first review). */
  last_verdict: '' | 'APPROVED' | 'CHANGES_REQUESTED';
  /** The latest review's findings. */
  findings: string[];
  /** What the review calls cost and used (included in totals). */
  cost_usd: number;
  input_tokens: number;
  output_tokens: number;
}

export function emptyReview(backend: string, maxRejected: number): StatusReview {
  return {
    backend,
    reviews: 0,
    rejected_in_a_row: 0,
    max_rejected: maxRejected,
    last_verdict: '',
    findings: [],
    cost_usd: 0,
    input_tokens: 0,
    output_tokens: 0,
  };
}

export function emptyTotals(): StatusTotals {
  return {
    cost_usd: 0,
    cost_estimated: false,
    cost_unknown_calls: 0,
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    num_turns: 0,
    calls: 0,
  };
}
