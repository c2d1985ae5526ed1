/**
 * Reads when a usage limit resets from Claude's message, e.g.
 * "You've hit your 5-hour limit · resets 2:40pm (UTC)", "resets 9pm
 * (Europe/Berlin)", "resets at 14:30", "resets Mon 9am", "resets Nov 24, 3pm",
 * "try again in 2 hours". The original ignored it and always waited 60
 * minutes. Pure: the current time and default zone are inputs.
 *
 * The CLI prints the reset floored to the minute, so a retry that lands just
 * before the true reset reads a time equal to (or a little before) the current
 * one. Such a time means "now", never the same time tomorrow.
 */
/** How far in the past a printed reset time still means "the limit lifts now". */
export const RECENT_RESET_MS = 5 * 60_000;
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

interface WallParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

function isValidZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Wall-clock fields of an instant in a time zone. */
export function wallClock(epochMs: number, zone: string): WallParts {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    weekday: 'short',
  }).formatToParts(new Date(epochMs));
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '0';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')) % 24,
    minute: Number(get('minute')),
    weekday: WEEKDAYS.indexOf(get('weekday').slice(0, 3).toLowerCase()),
  };
}

/** The instant at which the zone's wall clock shows the given fields. */
export function zonedToEpoch(year: number, month: number, day: number, hour: number, minute: number, zone: string): number {
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  let result = guess;
  let previous = guess;
  for (let i = 0; i < 3; i += 1) {
    const w = wallClock(result, zone);
    const shown = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
    const diff = guess - shown;
    if (diff === 0) return result;
    previous = result;
    result += diff;
  }
  // A wall time inside a skipped hour never shows: the search swings across the
  // gap, and the later side is the moment that wall time would have come.
  return Math.max(result, previous);
}

/** A reset still ahead, or so recently past that the floored minute explains it. */
function isAhead(at: number, nowMs: number): boolean {
  return at > nowMs - RECENT_RESET_MS;
}

const RESET_TIME =
  /resets?\s+(?:at\s+|on\s+)?(?:(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?(?:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:at\s+)?)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?(?:\s*\(([^)]+)\))?/i;
const RELATIVE = /(?:resets?|try again|retry)\s+in\s+(?:(\d+)\s*(?:h|hours?|hrs?))?\s*(?:(\d+)\s*(?:m|min|minutes?|mins?))?/i;

/**
 * @returns epoch ms of the reset, or undefined when the text names no time.
 */
export function parseResetTime(text: string, nowMs: number, defaultZone: string): number | undefined {
  const rel = RELATIVE.exec(text);
  if (rel && (rel[1] !== undefined || rel[2] !== undefined)) {
    return nowMs + (Number(rel[1] ?? 0) * 60 + Number(rel[2] ?? 0)) * 60_000;
  }
  const m = RESET_TIME.exec(text);
  if (!m) return undefined;
  const [, weekdayRaw, monthRaw, dayRaw, hourRaw, minuteRaw, ampm, zoneRaw] = m;
  let hour = Number(hourRaw);
  const minute = Number(minuteRaw ?? 0);
  if (ampm) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (ampm.toLowerCase() === 'pm' ? 12 : 0);
  } else if (minuteRaw === undefined) {
    // A bare number ("resets 9") is too ambiguous to trust.
    return undefined;
  }
  if (hour > 23 || minute > 59) return undefined;
  const zone = zoneRaw && isValidZone(zoneRaw.trim()) ? zoneRaw.trim() : defaultZone;
  const today = wallClock(nowMs, zone);
  if (monthRaw && dayRaw) {
    const month = MONTHS.indexOf(monthRaw.slice(0, 3).toLowerCase()) + 1;
    const day = Number(dayRaw);
    for (const year of [today.year - 1, today.year, today.year + 1]) {
      const at = zonedToEpoch(year, month, day, hour, minute, zone);
      if (isAhead(at, nowMs)) return Math.max(at, nowMs);
    }
    return undefined;
  }
  const wantWeekday = weekdayRaw ? WEEKDAYS.indexOf(weekdayRaw.slice(0, 3).toLowerCase()) : -1;
  // Start at yesterday: "resets 11:59pm" read at 00:01 is two minutes ago, not tonight.
  for (let offset = -1; offset <= 7; offset += 1) {
    // Walk calendar days in the zone: noon of "today + offset" avoids DST edges.
    const noon = zonedToEpoch(today.year, today.month, today.day, 12, 0, zone) + offset * 86_400_000;
    const d = wallClock(noon, zone);
    if (wantWeekday !== -1 && d.weekday !== wantWeekday) continue;
    const at = zonedToEpoch(d.year, d.month, d.day, hour, minute, zone);
    if (isAhead(at, nowMs)) return Math.max(at, nowMs);
  }
  return undefined;
}

/** The next midnight of a zone's wall clock after `nowMs` (when a daily quota of that zone resets). */
export function nextMidnight(nowMs: number, zone: string): number {
  const today = wallClock(nowMs, zone);
  // Noon of today, plus a day, is tomorrow's date in the zone whatever daylight saving does.
  const tomorrow = wallClock(zonedToEpoch(today.year, today.month, today.day, 12, 0, zone) + 86_400_000, zone);
  return zonedToEpoch(tomorrow.year, tomorrow.month, tomorrow.day, 0, 0, zone);
}
