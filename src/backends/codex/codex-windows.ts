import type { RateLimitWindow } from '../../agent-result.js';
import { windowKindOfMinutes } from '../../core/quota-windows.js';
import { isObject, type Json } from '../claude/json-fields.js';

/**
 * Codex's subscription windows, where its events carry them: a `rate_limits` object (in a
 * `token_count` event, directly or under `payload` / `msg` / `info`) with `primary` and
 * `secondary`, each `{used_percent, window_minutes, resets_at (epoch s) | resets_in_seconds}`.
 * A window is named by its duration, never by being primary or secondary (which one is the
 * 5-hour window is Codex's choice). Codex gives no warning of its own, only the percentage.
 */
export interface CodexWindow {
  kind: string;
  usedPercent: number;
  /** Epoch ms, or seconds from when it was read. */
  resetsAt?: number;
  resetsInSeconds?: number;
}

/** The rate_limits object of an event, wherever the event's shape puts it. */
export function rateLimitsOf(event: Json): Json | undefined {
  for (const holder of [event, event['payload'], event['msg'], event['info']]) {
    if (isObject(holder) && isObject(holder['rate_limits'])) return holder['rate_limits'];
  }
  return undefined;
}

export function codexWindowsOf(limits: Json): CodexWindow[] {
  const out: CodexWindow[] = [];
  for (const slot of ['primary', 'secondary']) {
    const w = limits[slot];
    if (!isObject(w)) continue;
    const used = finite(w['used_percent']);
    const minutes = finite(w['window_minutes']);
    if (used === undefined || minutes === undefined || minutes <= 0) continue;
    const window: CodexWindow = { kind: windowKindOfMinutes(minutes), usedPercent: Math.max(0, Math.min(100, used)) };
    const resetsAt = finite(w['resets_at']);
    const resetsIn = finite(w['resets_in_seconds']);
    if (resetsAt !== undefined && resetsAt > 0) window.resetsAt = resetsAt * 1000;
    else if (resetsIn !== undefined && resetsIn >= 0) window.resetsInSeconds = resetsIn;
    out.push(window);
  }
  return out;
}

/** The neutral windows at `nowMs` (when the output was read): used up at 100 %, else allowed. */
export function toRateLimitWindows(windows: readonly CodexWindow[], nowMs: number): RateLimitWindow[] {
  return windows.map((w) => {
    const out: RateLimitWindow = { kind: w.kind, status: w.usedPercent >= 100 ? 'rejected' : 'allowed', usedPercent: w.usedPercent };
    if (w.resetsAt !== undefined) out.resetsAt = w.resetsAt;
    else if (w.resetsInSeconds !== undefined) out.resetsAt = nowMs + w.resetsInSeconds * 1000;
    return out;
  });
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
