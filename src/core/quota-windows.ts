import type { RateLimitWindow } from '../agent-result.js';

/**
 * Subscription windows (a plan's 5-hour and weekly allowances) and the user's rule for them:
 * `--park-at` waits for a window's reset before the next call, `--stop-at` ends the run
 * (quota_reserved) — both when a window the rule names is nearly used up. Pure: the engine
 * hands in the windows the last call reported and the time.
 */

/** The windows a rule may name, by their duration. */
export const WINDOW_KINDS = ['five_hour', 'seven_day', 'seven_day_opus', 'seven_day_sonnet', 'overage'] as const;

/** A rule's threshold: the agent's own warning, or a used percentage; `windows` empty = every window. */
export interface QuotaThreshold {
  at: 'warning' | number;
  windows: readonly string[];
}

export const QUOTA_THRESHOLD_EXPECTED = `warning, warning:<windows> or a percentage such as 80% (windows: a comma list of ${WINDOW_KINDS.join(', ')})`;

export type ThresholdParse = { ok: true; value: QuotaThreshold | null } | { ok: false; problem: string };

/** `warning`, `warning:seven_day,five_hour`, `80%`, `80%:five_hour`; '' turns the rule off. */
export function parseQuotaThreshold(raw: string): ThresholdParse {
  const text = raw.trim().toLowerCase();
  if (text === '') return { ok: true, value: null };
  const colon = text.indexOf(':');
  const head = colon < 0 ? text : text.slice(0, colon);
  const tail = colon < 0 ? undefined : text.slice(colon + 1);
  let at: QuotaThreshold['at'];
  if (head === 'warning') at = 'warning';
  else {
    const percent = /^(\d{1,3}(?:\.\d+)?)%$/.exec(head);
    if (!percent) return { ok: false, problem: `'${head}' is neither 'warning' nor a percentage such as 80%` };
    const value = Number(percent[1]);
    if (value <= 0 || value > 100) return { ok: false, problem: `${head} is not a percentage from 1% to 100%` };
    at = value;
  }
  if (tail === undefined) return { ok: true, value: { at, windows: [] } };
  const windows = tail.split(',').map((w) => w.trim());
  const unknown = windows.filter((w) => !(WINDOW_KINDS as readonly string[]).includes(w));
  if (windows.length === 0 || unknown.length > 0) {
    const named = unknown.filter((w) => w !== '');
    return { ok: false, problem: named.length > 0 ? `unknown window ${named.map((w) => `'${w}'`).join(', ')}` : 'an empty window name' };
  }
  return { ok: true, value: { at, windows: [...new Set(windows)] } };
}

/** The threshold as the flag takes it. */
export function formatQuotaThreshold(t: QuotaThreshold | null): string {
  if (t === null) return '';
  const head = t.at === 'warning' ? 'warning' : `${t.at}%`;
  return t.windows.length > 0 ? `${head}:${t.windows.join(',')}` : head;
}

/** A window's duration in minutes as its kind: five_hour, seven_day, or `<n>_minutes` for any other. */
export function windowKindOfMinutes(minutes: number): string {
  if (minutes === 300) return 'five_hour';
  if (minutes === 10_080) return 'seven_day';
  return `${Math.round(minutes)}_minutes`;
}

/** How messages name a window. */
export function describeWindow(kind: string): string {
  switch (kind) {
    case 'five_hour':
      return '5-hour window';
    case 'seven_day':
      return 'weekly window';
    case 'seven_day_opus':
      return 'weekly Opus window';
    case 'seven_day_sonnet':
      return 'weekly Sonnet window';
    case 'overage':
      return 'extra-usage window';
    default:
      return `${kind.replace(/_/g, ' ')} window`;
  }
}

/** The window as one line: its name, status or use, and reset. */
export function describeWindowState(w: RateLimitWindow, formatTime: (ms: number) => string): string {
  const state = w.status === 'warning' ? 'nearly used up' : w.status === 'rejected' ? 'used up' : 'allowed';
  const used = w.usedPercent !== undefined ? `, ${Math.round(w.usedPercent)}% used` : '';
  const reset = w.resetsAt !== undefined ? `, resets ${formatTime(w.resetsAt)}` : '';
  return `${describeWindow(w.kind)}: ${state}${used}${reset}`;
}

export interface QuotaRules {
  parkAt: QuotaThreshold | null;
  stopAt: QuotaThreshold | null;
}

export type QuotaVerdict =
  | { action: 'go' }
  /** `window` is the one whose reset the loop waits for (the latest of those the rule matched). */
  | { action: 'park' | 'stop'; window: RateLimitWindow };

function reached(w: RateLimitWindow, t: QuotaThreshold): boolean {
  if (t.windows.length > 0 && !t.windows.includes(w.kind)) return false;
  if (w.status === 'rejected') return true;
  if (t.at === 'warning') return w.status === 'warning';
  return w.usedPercent !== undefined && w.usedPercent >= t.at;
}

/** Of the windows a rule matches, the one that resets last (all must reset before the rule stops holding). */
function matching(windows: readonly RateLimitWindow[], t: QuotaThreshold | null, nowMs: number): RateLimitWindow | undefined {
  if (t === null) return undefined;
  // A window whose reset has passed is a fresh one: what the call saw of it no longer holds.
  const hits = windows.filter((w) => reached(w, t) && (w.resetsAt === undefined || w.resetsAt > nowMs));
  return hits.reduce<RateLimitWindow | undefined>((best, w) => {
    if (best === undefined) return w;
    if (best.resetsAt === undefined) return best;
    return w.resetsAt === undefined || w.resetsAt > best.resetsAt ? w : best;
  }, undefined);
}

/** Park, stop or go on after a call that reported these windows; a stop rule wins over a park rule. */
export function decideQuota(windows: readonly RateLimitWindow[], rules: QuotaRules, nowMs: number): QuotaVerdict {
  const stop = matching(windows, rules.stopAt, nowMs);
  if (stop) return { action: 'stop', window: stop };
  const park = matching(windows, rules.parkAt, nowMs);
  if (park) return { action: 'park', window: park };
  return { action: 'go' };
}

/**
 * The windows known after a call: the call's own report replaces what an earlier call said of
 * the same window, and a window that has reset since is dropped.
 */
export function mergeWindows(known: readonly RateLimitWindow[], reported: readonly RateLimitWindow[] | undefined, nowMs: number): RateLimitWindow[] {
  const byKind = new Map<string, RateLimitWindow>();
  for (const w of [...known, ...(reported ?? [])]) byKind.set(w.kind, w);
  return [...byKind.values()].filter((w) => w.resetsAt === undefined || w.resetsAt > nowMs);
}
