/**
 * When a rate or usage limit resets, from the response headers OpenCode passes on with an API
 * error: `retry-after` (seconds or an HTTP date), OpenAI's `x-ratelimit-reset-*` (a duration such
 * as "6m0s") and Anthropic's `anthropic-ratelimit-*-reset` (an RFC 3339 time or epoch seconds).
 * The latest of them is the one that matters: before it, some limit still holds.
 */
const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function durationMs(text: string): number | undefined {
  if (!/^(\d+(?:\.\d+)?(ms|h|m|s))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(DURATION_PART)) total += Number(amount) * (UNIT_MS[unit ?? 's'] ?? 0);
  return total;
}

function pointInTime(text: string, nowMs: number): number | undefined {
  if (/^\d{9,11}$/.test(text)) return Number(text) * 1000;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) || parsed < nowMs - 60_000 ? undefined : parsed;
}

function resetOf(name: string, value: string, nowMs: number): number | undefined {
  const text = value.trim();
  if (name === 'retry-after') return /^\d+(\.\d+)?$/.test(text) ? nowMs + Number(text) * 1000 : pointInTime(text, nowMs);
  if (name.startsWith('x-ratelimit-reset')) {
    const ms = durationMs(text);
    return ms === undefined ? undefined : nowMs + ms;
  }
  if (name.startsWith('anthropic-ratelimit-') && name.endsWith('-reset')) return pointInTime(text, nowMs);
  return undefined;
}

export function resetTimeFromHeaders(headers: Readonly<Record<string, string>>, nowMs: number): number | undefined {
  let latest: number | undefined;
  for (const [name, value] of Object.entries(headers)) {
    const at = resetOf(name.toLowerCase(), value, nowMs);
    if (at !== undefined && (latest === undefined || at > latest)) latest = Math.round(at);
  }
  return latest;
}

/**
 * When a limit resets, from the error body the provider sent: `resets_at` (epoch seconds, as
 * OpenAI's usage_limit_reached carries it), `resets_in_seconds`, or Google's RetryInfo
 * `retryDelay` ("43200s").
 */
export function resetTimeFromBody(body: string | undefined, nowMs: number): number | undefined {
  if (body === undefined) return undefined;
  const resetsAt = /"resets_at"\s*:\s*(\d{9,11})\b/.exec(body)?.[1];
  if (resetsAt !== undefined) return Number(resetsAt) * 1000;
  const resetsIn = /"resets_in_seconds"\s*:\s*(\d+(?:\.\d+)?)/.exec(body)?.[1];
  if (resetsIn !== undefined) return Math.round(nowMs + Number(resetsIn) * 1000);
  const delay = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(body)?.[1];
  if (delay !== undefined) return Math.round(nowMs + Number(delay) * 1000);
  return undefined;
}
