export function formatUsd(value: number, estimated = false): string {
  const digits = value !== 0 && Math.abs(value) < 0.01 ? 4 : 2;
  return `${estimated ? '~' : ''}$${value.toFixed(digits)}`;
}

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function formatSeconds(total: number): string {
  const s = Math.max(0, Math.round(total));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  if (hours > 0) return `${hours}h ${String(minutes).padStart(2, '0')}m`;
  if (minutes > 0) return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
  return `${seconds}s`;
}

/** A timestamp as local time of day (and date when not today). */
export function formatTime(iso: string | null): string {
  if (iso === null || iso === '') return '—';
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  const date = new Date(ms);
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay ? date.toLocaleTimeString() : date.toLocaleString();
}

/** Seconds since `iso`, for the running call's clock. */
export function secondsSince(iso: string | null, fallback: number): number {
  const ms = iso === null ? Number.NaN : Date.parse(iso);
  return Number.isFinite(ms) ? Math.max(0, (Date.now() - ms) / 1000) : fallback;
}
