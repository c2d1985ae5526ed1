import type { RateLimitWindow } from '../../agent-result.js';
import { isObject, str, type Json } from './json-fields.js';

/**
 * Claude Code's subscription windows, from a stream-json `rate_limit_event`:
 * `rate_limit_info{status, resetsAt (epoch s), rateLimitType, utilization (0-1), unifiedWindows}`
 * where `unifiedWindows` (2.1.330) gives each window's own `{status, resetsAt, utilization}`.
 * Claude names its windows by their duration already (five_hour, seven_day, seven_day_opus, …).
 */
export function claudeWindowsOf(info: Json): RateLimitWindow[] {
  const out: RateLimitWindow[] = [];
  const main = windowOf(str(info['rateLimitType']), info);
  const unified = info['unifiedWindows'];
  if (isObject(unified)) {
    for (const [kind, value] of Object.entries(unified)) {
      const w = isObject(value) ? windowOf(kind, value) : undefined;
      if (w && w.kind !== main?.kind) out.push(w);
    }
  }
  // The event's own window last: its status is the one the CLI acted on.
  if (main) out.push(main);
  return out;
}

function windowOf(kind: string | undefined, value: Json): RateLimitWindow | undefined {
  if (kind === undefined || !/^[a-z0-9_]{1,40}$/.test(kind)) return undefined;
  const status = statusOf(str(value['status']));
  if (status === undefined) return undefined;
  const w: RateLimitWindow = { kind, status };
  const resetsAt = value['resetsAt'];
  if (typeof resetsAt === 'number' && Number.isFinite(resetsAt) && resetsAt > 0) w.resetsAt = resetsAt * 1000;
  const utilization = value['utilization'];
  if (typeof utilization === 'number' && Number.isFinite(utilization) && utilization >= 0) w.usedPercent = Math.min(100, utilization * 100);
  return w;
}

function statusOf(status: string | undefined): RateLimitWindow['status'] | undefined {
  if (status === 'allowed') return 'allowed';
  if (status === 'allowed_warning') return 'warning';
  if (status === 'rejected') return 'rejected';
  return undefined;
}
