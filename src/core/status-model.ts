import { isRecord as isRec, nullableNumber as nOrNull, nullableString as sOrNull, numberOr as n, stringOr as s } from './guards.js';

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
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  num_turns: number;
  calls: number;
}

export interface StatusIteration {
  loop: number;
  outcome: string;
  duration_ms: number;
  cost_usd: number;
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
  reason: 'rate_limit' | 'usage_limit' | 'api_retry' | 'verify_gate';
  until: string | null;
  message: string;
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
}

export function emptyTotals(): StatusTotals {
  return { cost_usd: 0, input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, num_turns: 0, calls: 0 };
}


/**
 * Reads an untrusted status.json value. Fields the original does not write
 * (or that are damaged) get neutral defaults; a value that is not an object
 * at all is reported as corrupt.
 */
export function normalizeStatus(value: unknown): StatusDocument | string {
  if (!isRec(value)) return 'status.json does not contain a JSON object';
  const circuit = isRec(value['circuit'])
    ? {
        state: s(value['circuit']['state'], 'UNKNOWN'),
        reason: s(value['circuit']['reason']),
        consecutive_no_progress: n(value['circuit']['consecutive_no_progress']),
        consecutive_failures: n(value['circuit']['consecutive_failures']),
        consecutive_same_error: n(value['circuit']['consecutive_same_error']),
        total_opens: n(value['circuit']['total_opens']),
      }
    : null;
  const t = isRec(value['totals']) ? value['totals'] : {};
  const limits = isRec(value['limits']) ? value['limits'] : {};
  const li = value['last_iteration'];
  const v = value['verify'];
  const w = value['waiting'];
  const verifyLast = isRec(v) && isRec(v['last']) ? v['last'] : undefined;
  const verifyStates = ['idle', 'passing', 'failing', 'escalated', 'skipped', 'aborted'] as const;
  const waitReasons = ['rate_limit', 'usage_limit', 'api_retry', 'verify_gate'] as const;
  return {
    timestamp: s(value['timestamp']),
    loop_count: n(value['loop_count']),
    calls_made_this_hour: n(value['calls_made_this_hour']),
    max_calls_per_hour: n(value['max_calls_per_hour'], 100),
    tokens_used_this_hour: n(value['tokens_used_this_hour']),
    max_tokens_per_hour: n(value['max_tokens_per_hour']),
    last_action: s(value['last_action']),
    status: s(value['status'], 'unknown'),
    exit_reason: s(value['exit_reason']),
    next_reset: s(value['next_reset']),
    sandbox: { provider: isRec(value['sandbox']) ? s(value['sandbox']['provider'], 'none') : 'none' },
    pid: nOrNull(value['pid']),
    started_at: sOrNull(value['started_at']),
    project: s(value['project']),
    backend: s(value['backend']),
    session_id: sOrNull(value['session_id']),
    exit_code: nOrNull(value['exit_code']),
    message: s(value['message']),
    circuit,
    totals: {
      cost_usd: n(t['cost_usd']),
      input_tokens: n(t['input_tokens']),
      output_tokens: n(t['output_tokens']),
      cache_read_input_tokens: n(t['cache_read_input_tokens']),
      cache_creation_input_tokens: n(t['cache_creation_input_tokens']),
      num_turns: n(t['num_turns']),
      calls: n(t['calls']),
    },
    limits: { max_loops: n(limits['max_loops']), max_cost_usd: n(limits['max_cost_usd']), max_runtime_minutes: n(limits['max_runtime_minutes']) },
    last_iteration: isRec(li)
      ? {
          loop: n(li['loop']),
          outcome: s(li['outcome']),
          duration_ms: n(li['duration_ms']),
          cost_usd: n(li['cost_usd']),
          files_changed: n(li['files_changed']),
          exit_signal: typeof li['exit_signal'] === 'boolean' ? li['exit_signal'] : null,
          summary: s(li['summary']),
          ended_at: s(li['ended_at']),
        }
      : null,
    verify: isRec(v)
      ? {
          command: s(v['command']),
          state: verifyStates.find((x) => x === v['state']) ?? 'idle',
          attempt: n(v['attempt']),
          max_attempts: n(v['max_attempts']),
          last: verifyLast
            ? {
                passed: verifyLast['passed'] === true,
                exit_code: nOrNull(verifyLast['exit_code']),
                timed_out: verifyLast['timed_out'] === true,
                duration_ms: n(verifyLast['duration_ms']),
                output_tail: s(verifyLast['output_tail']),
                at: s(verifyLast['at']),
              }
            : null,
        }
      : null,
    waiting: isRec(w)
      ? { reason: waitReasons.find((x) => x === w['reason']) ?? 'rate_limit', until: sOrNull(w['until']), message: s(w['message']) }
      : null,
  };
}
