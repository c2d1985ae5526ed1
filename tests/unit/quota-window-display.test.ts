import { describe, expect, it } from 'vitest';
import { buildRunReport } from '../../src/core/run-report.js';
import type { StatusDocument, StatusQuotaWindow } from '../../src/core/status-model.js';
import { localTimestamp } from '../../src/core/time-format.js';
import { buildLoopView } from '../../src/features/observe/dashboard/loop-view.js';
import { parseMetrics } from '../../src/features/observe/stats.js';
import { statusSchema } from '../../src/state/documents/status.js';
import { quotaWindowLines } from '../../src/ui/quota-window-lines.js';
import { renderMonitor } from '../../src/ui/render-monitor.js';
import { renderStatusText } from '../../src/ui/render-status.js';
import { parseOrReason } from '../helpers/parse-document.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const HOUR = 3_600_000;
const WINDOWS: StatusQuotaWindow[] = [
  { window: 'five_hour', status: 'allowed', used_percent: 20, resets_at: new Date(NOW + 2 * HOUR).toISOString() },
  { window: 'seven_day', status: 'warning', used_percent: 81, resets_at: new Date(NOW + 51 * HOUR).toISOString() },
  { window: 'seven_day_opus', status: 'rejected', used_percent: null, resets_at: null },
];
const LINES = [
  `5-hour window (five_hour): allowed, 20% used — resets in 2h 0m 0s (${localTimestamp(NOW + 2 * HOUR).slice(0, 16)})`,
  `weekly window (seven_day): nearly used up, 81% used — resets in 51h 0m 0s (${localTimestamp(NOW + 51 * HOUR).slice(0, 16)})`,
  'weekly Opus window (seven_day_opus): used up',
];

function statusDoc(): StatusDocument {
  const doc = parseOrReason(statusSchema, {
    timestamp: new Date(NOW).toISOString(),
    loop_count: 3,
    status: 'paused',
    backend: 'claude',
    quota_windows: WINDOWS,
    max_tokens: 500_000,
    totals: { input_tokens: 1000, output_tokens: 200, cache_read_input_tokens: 3000, cache_creation_input_tokens: 800 },
  });
  if (typeof doc === 'string') throw new Error(doc);
  return doc;
}

describe('the subscription windows, wherever a loop is shown', () => {
  it('one line per window: its name, status, use and reset', () => {
    expect(quotaWindowLines(WINDOWS, NOW)).toEqual(LINES);
    expect(quotaWindowLines([{ ...WINDOWS[0]!, resets_at: new Date(NOW - 1000).toISOString() }], NOW)).toEqual([
      '5-hour window (five_hour): allowed, 20% used — has reset',
    ]);
  });

  it('ralph --status names each window and the run token limit', () => {
    const text = renderStatusText(statusDoc(), true, NOW);
    for (const line of LINES) expect(text).toContain(`Window           ${line}`);
    expect(text).toContain('Token limit      5000/500000 this run (cache reads and writes included)');
  });

  it('the monitor has a section for them', () => {
    const frame = renderMonitor(
      {
        takenAt: new Date(NOW).toISOString(),
        projectDir: '/p',
        status: { kind: 'ok', doc: statusDoc() },
        progress: { kind: 'missing' },
        circuit: { kind: 'missing' },
        sessionId: null,
        logLines: [],
        loopAlive: true,
      },
      { width: 200, color: false, now: NOW },
    );
    expect(frame).toContain('Subscription Windows');
    for (const line of LINES) expect(frame).toContain(line);
  });

  it('the dashboard shows them on the loop card', () => {
    const view = buildLoopView(
      {
        id: 'main',
        title: 'project',
        queueState: null,
        location: '.',
        outcome: null,
        oddLogs: [],
        status: { kind: 'ok', value: statusDoc() },
        progress: { kind: 'missing' },
        circuit: { kind: 'missing' },
        circuitHistory: { kind: 'missing' },
        gate: { kind: 'missing' },
        metrics: parseMetrics(''),
        events: [],
        sessionId: null,
        alive: true,
      },
      NOW,
    );
    expect(view.state.windows).toEqual(LINES);
  });

  it('the run report carries them as status.json has them', () => {
    const doc = statusDoc();
    const report = buildRunReport({ exitCode: 5, status: doc, fallbackReason: 'error', branch: undefined, startedIso: 'a', endedIso: 'b' });
    expect(report.quota_windows).toEqual(WINDOWS);
    expect(buildRunReport({ exitCode: 2, fallbackReason: 'usage_error', branch: undefined, startedIso: 'a', endedIso: 'b' }).quota_windows).toEqual([]);
  });
});
