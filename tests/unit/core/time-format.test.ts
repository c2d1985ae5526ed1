import { describe, expect, it } from 'vitest';
import { clockTime, fileTimestamp, formatCountdown, formatDuration, isoTimestamp, localTimestamp, parseIso } from '../../../src/core/time-format.js';

/** A local wall-clock instant, so the expectations hold in any TZ. */
const local = new Date(2026, 0, 2, 3, 4, 5, 678).getTime();

describe('timestamps', () => {
  it('localTimestamp is the original log format', () => {
    expect(localTimestamp(local)).toBe('2026-01-02 03:04:05');
  });

  it('fileTimestamp is safe in file names', () => {
    expect(fileTimestamp(local)).toBe('2026-01-02_03-04-05');
  });

  it('clockTime is HH:MM:SS', () => {
    expect(clockTime(local)).toBe('03:04:05');
  });

  it.each([
    [0, '1970-01-01T00:00:00+00:00'],
    [Date.UTC(2026, 10, 22, 14, 39, 5, 999), '2026-11-22T14:39:05+00:00'],
  ])('isoTimestamp(%i) → %s (UTC, explicit offset, no milliseconds)', (ms, text) => {
    expect(isoTimestamp(ms)).toBe(text);
  });

  it('isoTimestamp parses back to the same second', () => {
    const ms = Date.UTC(2026, 5, 1, 8, 30, 0);
    expect(parseIso(isoTimestamp(ms))).toBe(ms);
  });
});

describe('parseIso', () => {
  it.each([
    ['2026-01-15T12:00:00+00:00', Date.UTC(2026, 0, 15, 12)],
    ['2026-01-15T12:00:00Z', Date.UTC(2026, 0, 15, 12)],
    ['2026-01-15T13:00:00+01:00', Date.UTC(2026, 0, 15, 12)],
  ])('%s → epoch ms', (text, ms) => {
    expect(parseIso(text)).toBe(ms);
  });

  it.each(['', '   ', 'null', 'garbage', 5, null, undefined, {}])('%j → undefined', (value) => {
    expect(parseIso(value)).toBeUndefined();
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [5, '5s'],
    [59.4, '59s'],
    [59.6, '1m 0s'],
    [65, '1m 5s'],
    [3600, '1h 0m 0s'],
    [3725, '1h 2m 5s'],
    [90_061, '25h 1m 1s'],
    [-3, '0s'],
  ])('%d s → %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe('formatCountdown', () => {
  it.each([
    [0, '00:00:00'],
    [0.2, '00:00:01'],
    [59, '00:00:59'],
    [3725, '01:02:05'],
    [36_000, '10:00:00'],
    [-1, '00:00:00'],
  ])('%d s → %s', (seconds, text) => {
    expect(formatCountdown(seconds)).toBe(text);
  });
});
