/** Local `YYYY-MM-DD HH:MM:SS`, the original's log timestamp. */
export function localTimestamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** ISO 8601 in UTC with an explicit offset, as the original writes status.json. */
export function isoTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** `YYYY-MM-DD_HH-MM-SS` for file names. */
export function fileTimestamp(ms: number): string {
  return localTimestamp(ms).replace(' ', '_').replace(/:/g, '-');
}

/** `HH:MM:SS` local time. */
export function clockTime(ms: number): string {
  return localTimestamp(ms).slice(11);
}

/** 3725 s → "1h 2m 5s"; 65 s → "1m 5s". */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}h ${m}m ${sec}s`;
  if (m > 0) return `${m}m ${sec}s`;
  return `${sec}s`;
}

/** Seconds → `HH:MM:SS` countdown text. */
export function formatCountdown(totalSeconds: number): string {
  const s = Math.max(0, Math.ceil(totalSeconds));
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${p(Math.floor(s / 3600))}:${p(Math.floor((s % 3600) / 60))}:${p(s % 60)}`;
}

/** Parses an ISO timestamp; undefined when it is not one. */
export function parseIso(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
