import { describe, expect, it } from 'vitest';
import type { StatusDocument } from '../../src/core/status-model.js';
import { statusSchema } from '../../src/state/documents/status.js';
import { parseOrReason } from '../helpers/parse-document.js';
import { clockTime } from '../../src/core/time-format.js';
import type { ProgressDocument } from '../../src/state/documents/progress.js';
import type { MonitorSnapshot } from '../../src/state/monitor-snapshot.js';
import { renderMonitor } from '../../src/ui/render-monitor.js';
import { renderStatusText } from '../../src/ui/render-status.js';
import { displayWidth } from '../../src/ui/text-fit.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const iso = (offsetSec: number): string => new Date(NOW + offsetSec * 1000).toISOString();
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

function statusDoc(overrides: Record<string, unknown> = {}): StatusDocument {
  const doc = parseOrReason(statusSchema, {
    timestamp: iso(-4),
    loop_count: 3,
    calls_made_this_hour: 7,
    max_calls_per_hour: 100,
    tokens_used_this_hour: 45213,
    max_tokens_per_hour: 200000,
    last_action: 'executing',
    status: 'running',
    exit_reason: '',
    next_reset: '13:00:00',
    pid: 4242,
    started_at: iso(-600),
    session_id: '280df34f-c3ad-4e13-8b54-00f4d7cd8111',
    exit_code: null,
    totals: {
      cost_usd: 0.4213,
      input_tokens: 45213,
      output_tokens: 3100,
      cache_read_input_tokens: 12000,
      cache_creation_input_tokens: 0,
      num_turns: 12,
      calls: 3,
    },
    limits: { max_loops: 50, max_cost_usd: 5, max_runtime_minutes: 0 },
    last_iteration: {
      loop: 2,
      outcome: 'success',
      duration_ms: 45000,
      cost_usd: 0.1,
      files_changed: 3,
      exit_signal: false,
      summary: 'Implemented the parser',
      ended_at: iso(-60),
    },
    circuit: { state: 'CLOSED', reason: '' },
    ...overrides,
  });
  if (typeof doc === 'string') throw new Error(doc);
  return doc;
}

const progress: ProgressDocument = {
  status: 'executing',
  indicator: '⠋',
  elapsed_seconds: 10,
  last_output: 'Running the test suite now',
  timestamp: '2026-03-01 12:00:00',
  loop: 3,
  current_tool: 'Bash: npm test',
  tool_uses: 4,
  started_at: iso(-12),
};

const LOG = [
  '[2026-03-01 11:59:50] [LOOP] === Starting Loop #3 ===',
  '[2026-03-01 11:59:51] [INFO] Executing Claude Code (Call 7/100)',
  '[2026-03-01 11:59:52] [WARN] a warning with an escape \u001b[31mred\u001b[0m and a\ttab',
];

function snapshot(overrides: Partial<MonitorSnapshot> = {}): MonitorSnapshot {
  return {
    takenAt: iso(0),
    projectDir: '/home/me/projects/todo-app',
    status: { kind: 'ok', doc: statusDoc() },
    progress: { kind: 'missing' },
    circuit: { kind: 'missing' },
    sessionId: '280df34f-c3ad-4e13-8b54-00f4d7cd8111',
    logLines: LOG,
    loopAlive: true,
    ...overrides,
  };
}

interface Case {
  name: string;
  snap: MonitorSnapshot;
  expect: (string | RegExp)[];
  absent?: (string | RegExp)[];
}

const cases: Case[] = [
  {
    name: 'full running loop',
    snap: snapshot({
      circuit: {
        kind: 'ok',
        value: {
          state: 'HALF_OPEN',
          last_change: iso(-30),
          consecutive_no_progress: 2,
          consecutive_same_error: 0,
          consecutive_permission_denials: 0,
          consecutive_failures: 1,
          last_progress_loop: 1,
          total_opens: 0,
          current_loop: 3,
          reason: 'Monitoring: 2 loops without progress',
        },
      },
    }),
    expect: [
      'RALPH MONITOR',
      'todo-app',
      /Loop: +#3 of 50 · running for 10m 0s/,
      /Status: +running · executing · updated 4s ago/,
      /API calls: +7\/100 this hour$/m,
      /Tokens: +45,213\/200,000 this hour/,
      /Cost: +\$0\.4213 of \$5\.00 limit/,
      /Circuit: +HALF_OPEN — Monitoring: 2 loops without progress/,
      /Breaker: +no progress 2/,
      /Session: +280df34f…/,
      /Last loop: +#2 success in 45s · 3 files changed/,
      'Recent Activity',
      '=== Starting Loop #3 ===',
      'Controls: Ctrl+C to exit | Refreshes every 2s',
    ],
    absent: ['Agent Progress', 'Finished', 'Waiting', '#0', 'next slot', 'Stop:'],
  },
  {
    name: 'status file missing',
    snap: snapshot({ status: { kind: 'missing' }, sessionId: null, logLines: [], loopAlive: null }),
    expect: ['Status file not found. Ralph may not be running.', 'ralph --monitor', '/home/me/projects/todo-app/.ralph/status.json', '(no log lines yet)'],
    absent: ['Loop:', '#0', 'API calls'],
  },
  {
    name: 'status file corrupt',
    snap: snapshot({ status: { kind: 'corrupt', reason: 'not valid JSON (Unexpected end of JSON input)' }, loopAlive: null }),
    expect: ['Status file is corrupt: not valid JSON (Unexpected end of JSON input)'],
    absent: ['#0', 'Loop:', 'API calls'],
  },
  {
    name: 'executing with a tool',
    snap: snapshot({ progress: { kind: 'ok', value: progress } }),
    expect: ['Agent Progress', /Working \(12s elapsed\) · loop #3/, /Tool: +Bash: npm test · 4 tool uses/, /Output: +Running the test suite now/],
  },
  {
    name: 'waiting for a usage limit',
    snap: snapshot({
      status: {
        kind: 'ok',
        doc: statusDoc({
          status: 'waiting',
          last_action: 'api_limit',
          waiting: { reason: 'usage_limit', until: iso(3723), message: "You've hit your 5-hour limit" },
        }),
      },
    }),
    expect: [
      'Waiting',
      /Reason: +the agent's usage limit reached/,
      new RegExp(`Until: +${clockTime(NOW + 3723_000)} \\(in 01:02:03\\)`),
      /Message: +You've hit your 5-hour limit/,
    ],
    absent: ['Finished'],
  },
  {
    name: 'finished with an exit reason',
    snap: snapshot({
      status: {
        kind: 'ok',
        doc: statusDoc({ status: 'completed', last_action: 'graceful_exit', exit_reason: 'plan_complete', exit_code: 0, message: 'All tasks done' }),
      },
      progress: { kind: 'ok', value: { ...progress, status: 'executing' } },
      loopAlive: null,
    }),
    expect: ['Finished', /Exit reason: +plan_complete \(exit code 0\)/, /Why: +every blocking task in fix_plan.md is checked/, /Message: +All tasks done/],
    absent: ['Agent Progress', 'running for', 'Waiting'],
  },
  {
    name: 'finished without a recorded exit code',
    snap: snapshot({ status: { kind: 'ok', doc: statusDoc({ status: 'halted', exit_reason: 'circuit_breaker_open' }) }, loopAlive: null }),
    expect: [/Exit reason: +circuit_breaker_open \(exit code 3\)/],
  },
  {
    name: 'verify gate failing',
    snap: snapshot({
      status: {
        kind: 'ok',
        doc: statusDoc({
          verify: {
            command: 'npm test',
            state: 'failing',
            attempt: 2,
            max_attempts: 3,
            last: {
              passed: false,
              exit_code: 1,
              timed_out: false,
              duration_ms: 3200,
              output_tail: 'FAIL tests/a.test.ts\n  expected 2, got 3\n\n',
              at: iso(-30),
            },
          },
        }),
      },
    }),
    expect: ['Verify Gate', /Command: +npm test/, /Result: +FAILED \(exit 1\) · attempt 2\/3 · 3s/, /Output: +expected 2, got 3/],
  },
  {
    name: 'verify gate timed out and escalated',
    snap: snapshot({
      status: {
        kind: 'ok',
        doc: statusDoc({
          verify: {
            command: 'make check',
            state: 'escalated',
            attempt: 3,
            max_attempts: 3,
            last: { passed: false, exit_code: null, timed_out: true, duration_ms: 300000, output_tail: '', at: iso(-5) },
          },
        }),
      },
    }),
    expect: [/Result: +TIMED OUT · attempt 3\/3 · 5m 0s/, /Gate: +ESCALATED — answer with: ralph --gate-action retry\|skip\|abort/],
  },
  {
    name: 'loop process gone',
    snap: snapshot({ loopAlive: false }),
    expect: ['loop process 4242 is not running'],
  },
  {
    name: 'progress file corrupt',
    snap: snapshot({ progress: { kind: 'corrupt', reason: 'the file is empty' } }),
    expect: ['Agent Progress', 'progress.json is corrupt: the file is empty'],
  },
  {
    name: 'the loops of a queue run',
    snap: snapshot({
      status: { kind: 'missing' },
      queueLoops: [
        { id: 't1', title: 'fix auth', branch: 'ralph/t1', loop: 3, state: 'running', costUsd: 0.4213, costEstimated: false, lastAction: 'Bash: npm test' },
        { id: 'gh-12', title: 'login', branch: 'ralph/gh-12', loop: 0, state: 'starting', costUsd: 0, costEstimated: true, lastAction: '' },
      ],
    }),
    expect: [/^Queue$/m, /^ {2}t1 {2}loop 3 {2}running {2}\$0\.4213 {2}Bash: npm test$/m, /^ {2}gh-12 {2}loop 0 {2}starting {2}\$0\.0000 \(est\.\)$/m],
  },
  {
    name: 'circuit state file corrupt',
    snap: snapshot({ circuit: { kind: 'corrupt', reason: 'not valid JSON' } }),
    expect: [/Circuit: +state file corrupt \(not valid JSON\)/],
  },
];

describe('renderMonitor', () => {
  for (const width of [80, 120]) {
    for (const c of cases) {
      it(`${c.name} at ${width} columns`, () => {
        const frame = renderMonitor(c.snap, { width, color: false, now: NOW });
        expect(frame).not.toMatch(ANSI);
        for (const line of frame.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
        for (const e of c.expect) {
          // Long lines are cut at 80 columns; the key content sits at their start.
          if (typeof e === 'string') expect(frame).toContain(e);
          else expect(frame).toMatch(e);
        }
        for (const a of c.absent ?? []) {
          if (typeof a === 'string') expect(frame).not.toContain(a);
          else expect(frame).not.toMatch(a);
        }
        expect(frame).toContain(clockTime(NOW));
      });
    }
  }

  it("shows when the next call slot frees up only once the hour's calls (nearly) run out", () => {
    const calls = (made: number): MonitorSnapshot => snapshot({ status: { kind: 'ok', doc: statusDoc({ calls_made_this_hour: made }) } });
    expect(renderMonitor(calls(2), { width: 120, color: false, now: NOW })).not.toContain('next slot');
    expect(renderMonitor(calls(95), { width: 120, color: false, now: NOW })).toMatch(/API calls: +95\/100 this hour · next slot 13:00:00/);
    expect(renderMonitor(calls(100), { width: 120, color: false, now: NOW })).toContain('next slot 13:00:00');
    expect(renderStatusText(statusDoc({ calls_made_this_hour: 2 }), true, NOW)).toMatch(/API calls +2\/100 this hour$/m);
    expect(renderStatusText(statusDoc({ calls_made_this_hour: 100 }), true, NOW)).toContain('100/100 this hour (next slot 13:00:00)');
  });

  it('says a stop was requested, and when, while the running loop has not acted on it yet', () => {
    const stopRequest = { requestedAt: iso(-125) };
    const frame = renderMonitor(snapshot({ stopRequest }), { width: 120, color: false, now: NOW });
    expect(frame).toMatch(new RegExp(`Stop: +requested at ${clockTime(NOW - 125_000)} \\(2m 5s ago\\); the loop stops before its next step`));
    const text = renderStatusText(statusDoc(), true, NOW, stopRequest);
    expect(text).toMatch(new RegExp(`Stop +requested at ${clockTime(NOW - 125_000)} \\(2m 5s ago\\); the loop stops before its next step`));
    // Nothing pending, or no loop left to act on it: no stop line.
    expect(renderStatusText(statusDoc(), true, NOW)).not.toContain('Stop');
    expect(renderStatusText(statusDoc(), false, NOW, stopRequest)).not.toMatch(/^ +Stop/m);
  });

  it('renders a one-shot frame for a pipe: no controls footer, no spinner glyph, nothing cut', () => {
    const long = `[2026-03-01 11:59:52] [INFO] ${'x'.repeat(150)}END`;
    const snap = snapshot({ progress: { kind: 'ok', value: progress }, logLines: [long] });
    const frame = renderMonitor(snap, { width: 80, color: false, now: NOW, once: true, plain: true });
    expect(frame).not.toContain('Controls:');
    expect(frame).not.toContain('Refreshes every');
    expect(frame).toContain(`Snapshot at ${clockTime(NOW)}`);
    expect(frame).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/u);
    expect(frame).toMatch(/Status: +Working \(12s elapsed\)/);
    expect(frame).toContain('280df34f-c3ad-4e13-8b54-00f4d7cd8111');
    expect(frame).toContain('xEND');
    expect(frame).not.toContain('…');
    // On a terminal the live dashboard keeps its footer, spinner and short ids.
    const live = renderMonitor(snap, { width: 80, color: false, now: NOW });
    expect(live).toContain('Controls: Ctrl+C to exit');
    expect(live).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Working/u);
  });

  it('cuts long lines with an ellipsis at 80 columns but not at 120', () => {
    const snap = snapshot({ logLines: [`[2026-03-01 11:59:52] [INFO] ${'x'.repeat(70)}END`] });
    expect(renderMonitor(snap, { width: 80, color: false, now: NOW })).toMatch(/x…\n/);
    expect(renderMonitor(snap, { width: 120, color: false, now: NOW })).toContain('xEND');
  });

  it('strips escape sequences and control characters from file content', () => {
    const frame = renderMonitor(snapshot(), { width: 120, color: false, now: NOW });
    expect(frame).toContain('a warning with an escape red and a tab');
    expect(frame).not.toContain('\u001b');
    expect(frame).not.toContain('\t');
  });

  it('colours only when asked, and colour does not change the visible width', () => {
    const plain = renderMonitor(snapshot(), { width: 80, color: false, now: NOW });
    const coloured = renderMonitor(snapshot(), { width: 80, color: true, now: NOW });
    expect(coloured).toMatch(ANSI);
    expect(coloured.replace(ANSI, '')).toBe(plain);
  });

  it('shows the last 8 log lines by default', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `[2026-03-01 11:59:${String(i).padStart(2, '0')}] [INFO] entry ${i}`);
    const frame = renderMonitor(snapshot({ logLines: lines }), { width: 80, color: false, now: NOW });
    expect(frame).toContain('entry 19');
    expect(frame).toContain('entry 12');
    expect(frame).not.toContain('entry 11');
  });

  it('fits a short terminal by dropping log lines first, keeping the footer', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `[2026-03-01 11:59:00] [INFO] entry ${i}`);
    const full = renderMonitor(snapshot({ logLines: lines }), { width: 80, color: false, now: NOW }).split('\n');
    const height = full.length - 1 - 3;
    const frame = renderMonitor(snapshot({ logLines: lines }), { width: 80, color: false, now: NOW, height });
    const rows = frame.replace(/\n$/, '').split('\n');
    expect(rows.length).toBeLessThanOrEqual(height);
    expect(frame).toContain('entry 19');
    expect(frame).not.toContain('entry 14');
    expect(rows[rows.length - 1]).toContain('Controls: Ctrl+C to exit');
    const tiny = renderMonitor(snapshot({ logLines: lines }), { width: 80, color: false, now: NOW, height: 6 });
    expect(tiny.replace(/\n$/, '').split('\n')).toHaveLength(6);
  });

  it('shows the refresh interval it is given', () => {
    expect(renderMonitor(snapshot(), { width: 80, color: false, now: NOW, intervalSec: 5 })).toContain('Refreshes every 5s');
    expect(renderMonitor(snapshot(), { width: 80, color: false, now: NOW, intervalSec: 0.5 })).toContain('Refreshes every 0.5s');
  });

  it('never produces a line wider than a very narrow terminal', () => {
    const frame = renderMonitor(snapshot({ progress: { kind: 'ok', value: progress } }), { width: 20, color: true, now: NOW });
    for (const line of frame.replace(ANSI, '').split('\n')) expect(displayWidth(line.replace(ANSI, ''))).toBeLessThanOrEqual(20);
  });
});
