import { describeWindow } from '../core/quota-windows.js';
import type { StatusQuotaWindow } from '../core/status-model.js';
import { formatDuration, localTimestamp, parseIso } from '../core/time-format.js';

/**
 * One line per subscription window status.json names, for `ralph --status`, the monitor and the
 * dashboard: "weekly window (seven_day): nearly used up, 81% used — resets in 51h 0m 0s (2026-03-04 13:00)".
 */
export function quotaWindowLines(windows: readonly StatusQuotaWindow[], nowMs: number): string[] {
  return windows.map((w) => {
    const state = w.status === 'warning' ? 'nearly used up' : w.status === 'rejected' ? 'used up' : 'allowed';
    const used = w.used_percent !== null ? `, ${Math.round(w.used_percent)}% used` : '';
    const reset = parseIso(w.resets_at);
    const when =
      reset === undefined
        ? ''
        : reset > nowMs
          ? ` — resets in ${formatDuration((reset - nowMs) / 1000)} (${localTimestamp(reset).slice(0, 16)})`
          : ' — has reset';
    return `${describeWindow(w.window)} (${w.window}): ${state}${used}${when}`;
  });
}
