import { describe, expect, it } from 'vitest';
import type { RateLimitWindow } from '../../../src/agent-result.js';
import {
  decideQuota,
  formatQuotaThreshold,
  mergeWindows,
  parseQuotaThreshold,
  windowKindOfMinutes,
  type QuotaThreshold,
} from '../../../src/core/quota-windows.js';

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const threshold = (raw: string): QuotaThreshold | null => {
  const parsed = parseQuotaThreshold(raw);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.value;
};
const w = (kind: string, status: RateLimitWindow['status'], resetsInHours?: number, usedPercent?: number): RateLimitWindow => ({
  kind,
  status,
  ...(resetsInHours !== undefined ? { resetsAt: NOW + resetsInHours * HOUR } : {}),
  ...(usedPercent !== undefined ? { usedPercent } : {}),
});

describe('parseQuotaThreshold', () => {
  it.each([
    ['warning', { at: 'warning', windows: [] }],
    ['WARNING:seven_day', { at: 'warning', windows: ['seven_day'] }],
    ['warning:seven_day, five_hour', { at: 'warning', windows: ['seven_day', 'five_hour'] }],
    ['80%', { at: 80, windows: [] }],
    ['100%', { at: 100, windows: [] }],
    ['92.5%:five_hour', { at: 92.5, windows: ['five_hour'] }],
    ['', null],
  ])('%j', (raw, value) => {
    expect(parseQuotaThreshold(raw)).toEqual({ ok: true, value });
  });

  it.each([
    ['soon', "'soon' is neither 'warning' nor a percentage such as 80%"],
    ['warning:weekly', "unknown window 'weekly'"],
    ['warning:', 'an empty window name'],
    ['120%', '120% is not a percentage from 1% to 100%'],
    ['0%', '0% is not a percentage from 1% to 100%'],
    ['80', "'80' is neither 'warning' nor a percentage such as 80%"],
  ])('rejects %j', (raw, problem) => {
    expect(parseQuotaThreshold(raw)).toEqual({ ok: false, problem });
  });

  it('writes a threshold back as the flag takes it', () => {
    for (const raw of ['warning', 'warning:seven_day,five_hour', '80%', '80%:five_hour', '']) expect(formatQuotaThreshold(threshold(raw))).toBe(raw);
  });
});

describe('decideQuota', () => {
  const rules = (parkAt: string, stopAt = ''): { parkAt: QuotaThreshold | null; stopAt: QuotaThreshold | null } => ({
    parkAt: threshold(parkAt),
    stopAt: threshold(stopAt),
  });

  it.each<[string, RateLimitWindow[], string, string, string | undefined]>([
    ['no rule', [w('five_hour', 'warning', 2)], '', '', undefined],
    ['nothing reported', [], 'warning', '', undefined],
    ['all allowed', [w('five_hour', 'allowed', 2), w('seven_day', 'allowed', 50)], 'warning', '', undefined],
    ['a warning parks', [w('five_hour', 'allowed', 2), w('seven_day', 'warning', 50)], 'warning', '', 'park seven_day'],
    ['a window the rule does not name', [w('seven_day', 'warning', 50)], 'warning:five_hour', '', undefined],
    ['a named window', [w('seven_day', 'warning', 50)], 'warning:five_hour,seven_day', '', 'park seven_day'],
    ['the later reset of two', [w('five_hour', 'warning', 2), w('seven_day', 'warning', 50)], 'warning', '', 'park seven_day'],
    ['a reset already past', [w('five_hour', 'warning', -1)], 'warning', '', undefined],
    ['a rejected window is past the warning', [w('seven_day_opus', 'rejected', 20)], 'warning', '', 'park seven_day_opus'],
    ['stop wins over park', [w('seven_day', 'warning', 50)], 'warning', 'warning', 'stop seven_day'],
    ['stop on its own windows', [w('five_hour', 'warning', 2)], 'warning', 'warning:seven_day', 'park five_hour'],
    ['a percentage reached', [w('five_hour', 'allowed', 2, 81)], '80%', '', 'park five_hour'],
    ['a percentage not reached', [w('five_hour', 'allowed', 2, 79.9)], '80%', '', undefined],
    ['a percentage with no figure', [w('five_hour', 'warning', 2)], '80%', '', undefined],
    ['stop at a percentage', [w('seven_day', 'allowed', 90, 95)], '', '90%', 'stop seven_day'],
    ['an unknown reset still matches', [w('five_hour', 'warning')], 'warning', '', 'park five_hour'],
  ])('%s', (_name, windows, parkAt, stopAt, expected) => {
    const verdict = decideQuota(windows, rules(parkAt, stopAt), NOW);
    expect(verdict.action === 'go' ? undefined : `${verdict.action} ${verdict.window.kind}`).toBe(expected);
  });
});

describe('windows', () => {
  it('names a window by its duration, not its position', () => {
    expect(windowKindOfMinutes(300)).toBe('five_hour');
    expect(windowKindOfMinutes(10_080)).toBe('seven_day');
    expect(windowKindOfMinutes(60)).toBe('60_minutes');
  });

  it('keeps the latest report of each window and drops those that have reset', () => {
    const known = [w('five_hour', 'warning', -0.5), w('seven_day', 'allowed', 40)];
    expect(mergeWindows(known, [w('seven_day', 'warning', 40)], NOW)).toEqual([w('seven_day', 'warning', 40)]);
    expect(mergeWindows(known, undefined, NOW)).toEqual([w('seven_day', 'allowed', 40)]);
  });
});
