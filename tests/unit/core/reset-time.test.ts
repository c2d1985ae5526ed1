import { describe, expect, it } from 'vitest';
import { parseResetTime, wallClock, zonedToEpoch } from '../../../src/core/reset-time.js';

const at = (isoUtc: string): number => Date.parse(isoUtc);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('parseResetTime: clock times', () => {
  it.each([
    ['resets 9pm (Europe/Berlin)', '2026-01-15T12:00:00Z', 'UTC', '2026-01-15T20:00:00Z'],
    ["You've hit your session limit · resets 2:39pm (UTC)", '2026-11-22T12:39:00Z', 'Europe/Berlin', '2026-11-22T14:39:00Z'],
    ["You've hit your 5-hour limit · resets 2:40pm (UTC)", '2026-11-22T12:40:00Z', 'UTC', '2026-11-22T14:40:00Z'],
    ["You're out of extra usage · resets 9pm", '2026-01-15T12:00:00Z', 'UTC', '2026-01-15T21:00:00Z'],
    ['resets at 14:30', '2026-01-15T10:00:00Z', 'UTC', '2026-01-15T14:30:00Z'],
    ['resets at 14:30', '2026-01-15T12:00:00Z', 'America/New_York', '2026-01-15T19:30:00Z'],
    ['Resets 9AM (America/Los_Angeles)', '2026-01-15T12:00:00Z', 'UTC', '2026-01-15T17:00:00Z'],
    ['resets 12am (UTC)', '2026-01-15T12:00:00Z', 'UTC', '2026-01-16T00:00:00Z'],
    ['resets 12pm (UTC)', '2026-01-15T08:00:00Z', 'UTC', '2026-01-15T12:00:00Z'],
    ['resets 9:05 pm', '2026-01-15T12:00:00Z', 'UTC', '2026-01-15T21:05:00Z'],
  ])('%j at %s (default %s) → %s', (text, now, zone, expected) => {
    expect(parseResetTime(text, at(now), zone)).toBe(at(expected));
  });

  it('a time already past today is tomorrow (across midnight)', () => {
    expect(parseResetTime('resets 9pm', at('2026-01-15T23:50:00Z'), 'UTC')).toBe(at('2026-01-16T21:00:00Z'));
    expect(parseResetTime('resets 12:05am', at('2026-01-15T23:50:00Z'), 'UTC')).toBe(at('2026-01-16T00:05:00Z'));
    expect(parseResetTime('resets at 23:55', at('2026-01-15T23:50:00Z'), 'UTC')).toBe(at('2026-01-15T23:55:00Z'));
  });

  // The CLI floors the printed reset to the minute: the current minute, or one a
  // few minutes gone, means the limit lifts now — never the same time tomorrow.
  it.each([
    ['resets 12:30pm', '2026-01-15T12:30:23Z', 'UTC', '2026-01-15T12:30:23Z'],
    ['resets at 12:00', '2026-01-15T12:00:00Z', 'UTC', '2026-01-15T12:00:00Z'],
    ['resets 12:30pm', '2026-01-15T12:34:59Z', 'UTC', '2026-01-15T12:34:59Z'],
    ['resets 1:30pm (Europe/Berlin)', '2026-01-15T12:32:00Z', 'UTC', '2026-01-15T12:32:00Z'],
    ['resets 7:30am', '2026-01-15T12:33:00Z', 'America/New_York', '2026-01-15T12:33:00Z'],
    ['resets 11:59pm (UTC)', '2026-01-16T00:01:00Z', 'UTC', '2026-01-16T00:01:00Z'],
    ['resets 11:58pm (Europe/Berlin)', '2026-01-15T23:00:30Z', 'UTC', '2026-01-15T23:00:30Z'],
    ['resets Mon 9am', '2026-01-19T09:02:00Z', 'UTC', '2026-01-19T09:02:00Z'],
    ['resets Sun 11:59pm', '2026-01-19T00:02:00Z', 'UTC', '2026-01-19T00:02:00Z'],
    ['resets Nov 24, 3pm', '2026-11-24T15:03:00Z', 'UTC', '2026-11-24T15:03:00Z'],
    ['resets Dec 31, 11:59pm (UTC)', '2027-01-01T00:01:00Z', 'UTC', '2027-01-01T00:01:00Z'],
  ])('%j read at %s (default %s) means now', (text, now, zone, expected) => {
    expect(parseResetTime(text, at(now), zone)).toBe(at(expected));
  });

  it.each([
    ['resets 12:30pm', '2026-01-15T12:35:01Z', '2026-01-16T12:30:00Z'],
    ['resets 12:30pm', '2026-01-15T13:00:00Z', '2026-01-16T12:30:00Z'],
    ['resets 11:50pm (UTC)', '2026-01-16T00:01:00Z', '2026-01-16T23:50:00Z'],
    ['resets Mon 9am', '2026-01-19T09:06:00Z', '2026-01-26T09:00:00Z'],
  ])('%j read at %s, more than a few minutes later, is the next one: %s', (text, now, expected) => {
    expect(parseResetTime(text, at(now), 'UTC')).toBe(at(expected));
  });

  it('midnight in the zone of the message, not of the default zone', () => {
    // 23:50 UTC is 00:50 the next day in Berlin: "9pm" Berlin is that evening.
    expect(parseResetTime('resets 9pm (Europe/Berlin)', at('2026-01-15T23:50:00Z'), 'UTC')).toBe(at('2026-01-16T20:00:00Z'));
  });
});

describe('parseResetTime: weekdays and dates', () => {
  it('resets Mon 9am from a Thursday is next Monday', () => {
    expect(parseResetTime('resets Mon 9am', at('2026-01-15T12:00:00Z'), 'UTC')).toBe(at('2026-01-19T09:00:00Z'));
  });

  it('resets Monday 9am on a Monday morning is today, on a Monday afternoon next week', () => {
    expect(parseResetTime('resets Monday 9am', at('2026-01-19T08:00:00Z'), 'UTC')).toBe(at('2026-01-19T09:00:00Z'));
    expect(parseResetTime('resets Monday 9am', at('2026-01-19T10:00:00Z'), 'UTC')).toBe(at('2026-01-26T09:00:00Z'));
  });

  it('resets Nov 24, 3pm is that date this year, or next year once it has passed', () => {
    expect(parseResetTime('resets Nov 24, 3pm', at('2026-11-22T12:00:00Z'), 'UTC')).toBe(at('2026-11-24T15:00:00Z'));
    expect(parseResetTime('resets Nov 24, 3pm', at('2026-11-25T12:00:00Z'), 'UTC')).toBe(at('2027-11-24T15:00:00Z'));
    expect(parseResetTime('weekly limit resets on November 24th at 3pm (UTC)', at('2026-11-22T12:00:00Z'), 'UTC')).toBe(at('2026-11-24T15:00:00Z'));
  });
});

describe('parseResetTime: relative times', () => {
  it.each([
    ['try again in 2 hours', 2 * HOUR],
    ['Please retry in 45 minutes', 45 * MINUTE],
    ['resets in 1h 30m', 90 * MINUTE],
    ['resets in 3 hrs', 3 * HOUR],
    ['Try again in 10 min', 10 * MINUTE],
  ])('%j → now + %i ms', (text, offset) => {
    const now = at('2026-01-15T12:00:00Z');
    expect(parseResetTime(text, now, 'UTC')).toBe(now + offset);
  });
});

describe('parseResetTime: daylight saving time', () => {
  it.each([
    ['Europe/Berlin, the night the clocks go forward', 'resets 9am (Europe/Berlin)', '2026-03-28T22:00:00Z', '2026-03-29T07:00:00Z'],
    ['Europe/Berlin, just after the clocks went forward', 'resets 3:30am (Europe/Berlin)', '2026-03-29T00:30:00Z', '2026-03-29T01:30:00Z'],
    ['Europe/Berlin, the night the clocks go back', 'resets 9am (Europe/Berlin)', '2026-10-24T20:00:00Z', '2026-10-25T08:00:00Z'],
    ['America/New_York, spring forward', 'resets 9am (America/New_York)', '2026-03-07T23:00:00Z', '2026-03-08T13:00:00Z'],
    ['America/New_York, fall back', 'resets 9am (America/New_York)', '2026-10-31T22:00:00Z', '2026-11-01T14:00:00Z'],
    ['America/New_York as the default zone, fall back', 'resets 9am', '2026-10-31T22:00:00Z', '2026-11-01T14:00:00Z'],
  ])('%s', (_name, text, now, expected) => {
    const zone = text.includes('(') ? 'UTC' : 'America/New_York';
    expect(parseResetTime(text, at(now), zone)).toBe(at(expected));
  });

  it('a wall time that does not exist (skipped hour) still gives a time after now', () => {
    const now = at('2026-03-29T00:30:00Z');
    const reset = parseResetTime('resets 2:30am (Europe/Berlin)', now, 'UTC');
    expect(reset).toBeDefined();
    expect(reset as number).toBeGreaterThan(now);
    expect((reset as number) - now).toBeLessThan(25 * HOUR);
  });
});

describe('parseResetTime: zones and junk', () => {
  it('an unknown zone falls back to the default zone', () => {
    expect(parseResetTime('resets 9pm (Mars/Olympus)', at('2026-01-15T12:00:00Z'), 'UTC')).toBe(at('2026-01-15T21:00:00Z'));
    expect(parseResetTime('resets 9pm (Mars/Olympus)', at('2026-01-15T12:00:00Z'), 'Europe/Berlin')).toBe(at('2026-01-15T20:00:00Z'));
  });

  it.each(['resets 9', 'resets 25:00', 'resets 13pm', 'resets 0am', 'resets 9:75', 'resets 24:00', 'no time here', '', 'try again later', 'resets soon'])(
    '%j → undefined',
    (text) => {
      expect(parseResetTime(text, at('2026-01-15T12:00:00Z'), 'UTC')).toBeUndefined();
    },
  );
});

describe('wallClock and zonedToEpoch', () => {
  it('shows the wall clock of an instant in a zone', () => {
    expect(wallClock(at('2026-01-15T23:50:00Z'), 'Europe/Berlin')).toEqual({ year: 2026, month: 1, day: 16, hour: 0, minute: 50, weekday: 5 });
    expect(wallClock(at('2026-07-01T00:00:00Z'), 'America/New_York')).toEqual({ year: 2026, month: 6, day: 30, hour: 20, minute: 0, weekday: 2 });
  });

  it.each([
    ['UTC', '2026-01-15T09:00:00Z'],
    ['Europe/Berlin', '2026-01-15T08:00:00Z'],
    ['America/New_York', '2026-01-15T14:00:00Z'],
    ['Asia/Kolkata', '2026-01-15T03:30:00Z'],
  ])('9:00 on 2026-01-15 in %s is %s', (zone, instant) => {
    expect(zonedToEpoch(2026, 1, 15, 9, 0, zone)).toBe(at(instant));
  });

  it('round-trips wall clock and instant around a DST change', () => {
    const instant = zonedToEpoch(2026, 10, 25, 9, 0, 'Europe/Berlin');
    expect(wallClock(instant, 'Europe/Berlin')).toMatchObject({ year: 2026, month: 10, day: 25, hour: 9, minute: 0 });
  });
});
