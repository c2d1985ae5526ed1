/**
 * Calls and tokens per hour over a sliding 60-minute window, persisted
 * in .ralph/.rate_limit_state so a restart remembers what was spent. Every call
 * counts, failed ones included. The original reset at wall-clock hour
 * boundaries; a sliding window never allows a double burst around
 * the top of the hour and says exactly when the next call is allowed.
 */
export interface CallRecord {
  /** Epoch ms of the call. */
  at: number;
  tokens: number;
  /** Which loop made it and its number there, when loops share one window (two calls may share a millisecond). */
  id?: string;
}

export interface WaitRecord {
  reason: 'rate_limit' | 'usage_limit' | 'api_retry' | 'quota_window';
  /** Epoch ms when the wait ends. */
  until: number;
  message: string;
}

export interface ApiRetryRecord {
  /** Retries already spent on the current run of transient API errors. */
  attempts: number;
  lastError: string;
}

export interface RateState {
  calls: CallRecord[];
  /** A wait in progress, so a restart resumes it. */
  wait?: WaitRecord;
  apiRetry?: ApiRetryRecord;
}

export interface RateLimits {
  maxCallsPerHour: number;
  /** 0 = no token limit. */
  maxTokensPerHour: number;
}

export const WINDOW_MS = 60 * 60 * 1000;

export function emptyRateState(): RateState {
  return { calls: [] };
}

/** Whether a call counts in the window at `nowMs`. */
function inWindow(call: Readonly<CallRecord>, nowMs: number): boolean {
  return call.at > nowMs - WINDOW_MS && call.at <= nowMs + WINDOW_MS;
}

/** Drops calls that left the window. */
export function pruneCalls(state: RateState, nowMs: number): RateState {
  const calls = state.calls.filter((c) => inWindow(c, nowMs));
  return calls.length === state.calls.length ? state : { ...state, calls };
}

export interface WindowUsage {
  calls: number;
  tokens: number;
  /** When the oldest call in the window leaves it (epoch ms), if any call is in it. */
  nextReset?: number;
}

/** Reads the calls only: a frozen snapshot of the state will do. */
export function windowUsage(state: { readonly calls: ReadonlyArray<Readonly<CallRecord>> }, nowMs: number): WindowUsage {
  const live = state.calls.filter((c) => inWindow(c, nowMs));
  const usage: WindowUsage = { calls: live.length, tokens: live.reduce((sum, c) => sum + c.tokens, 0) };
  const oldest = live.reduce<number | undefined>((min, c) => (min === undefined || c.at < min ? c.at : min), undefined);
  if (oldest !== undefined) usage.nextReset = oldest + WINDOW_MS;
  return usage;
}

export type CallPermit = { ok: true } | { ok: false; waitUntil: number; reason: string };

/**
 * May a call start now? When not, the earliest time it may: enough calls (or
 * tokens) must have left the window.
 */
export function checkCall(state: RateState, nowMs: number, limits: RateLimits): CallPermit {
  const live = [...pruneCalls(state, nowMs).calls].sort((a, b) => a.at - b.at);
  const tokens = live.reduce((sum, c) => sum + c.tokens, 0);
  const callsOver = live.length - limits.maxCallsPerHour + 1;
  const tokensOver = limits.maxTokensPerHour > 0 ? tokens - limits.maxTokensPerHour + 1 : 0;
  if (callsOver <= 0 && tokensOver <= 0) return { ok: true };
  let waitUntil = nowMs;
  let reason = '';
  if (callsOver > 0) {
    const release = live[callsOver - 1];
    if (release) waitUntil = Math.max(waitUntil, release.at + WINDOW_MS);
    reason = `calls: ${live.length}/${limits.maxCallsPerHour}`;
  }
  if (tokensOver > 0) {
    let freed = 0;
    for (const call of live) {
      freed += call.tokens;
      if (freed >= tokensOver) {
        waitUntil = Math.max(waitUntil, call.at + WINDOW_MS);
        break;
      }
    }
    reason = reason ? `${reason}, tokens: ${tokens}/${limits.maxTokensPerHour}` : `tokens: ${tokens}/${limits.maxTokensPerHour}`;
  }
  return { ok: false, waitUntil, reason };
}

/** Counts a call when it starts (tokens are added when it ends); `id` names it in a shared window. */
export function recordCallStart(state: RateState, nowMs: number, id?: string): RateState {
  const pruned = pruneCalls(state, nowMs);
  return { ...pruned, calls: [...pruned.calls, { at: nowMs, tokens: 0, ...(id !== undefined ? { id } : {}) }] };
}

/** Adds the tokens the latest call used. */
export function recordCallTokens(state: RateState, tokens: number): RateState {
  if (state.calls.length === 0 || tokens <= 0) return state;
  const calls = [...state.calls];
  const last = calls[calls.length - 1] as CallRecord;
  calls[calls.length - 1] = { ...last, tokens: last.tokens + tokens };
  return { ...state, calls };
}

/** API-error retries: waits grow by one step per attempt (5 → 10 → 15 minutes by default). */
export function apiRetryDelayMs(attempt: number, baseSeconds: number): number {
  return Math.max(0, attempt) * baseSeconds * 1000;
}
