import { describe, expect, it } from 'vitest';
import { initialCircuit } from '../../../../../src/core/circuit-breaker.js';
import { emptyTotals, type StatusDocument } from '../../../../../src/core/status-model.js';
import type { GateState } from '../../../../../src/core/verify-gate.js';
import {
  buildLoopView,
  DASHBOARD_CHART_POINTS,
  describeState,
  iterationPoints,
  type LoopFiles,
} from '../../../../../src/features/observe/dashboard/loop-view.js';
import { recentIterations } from '../../../../../src/features/observe/dashboard/recent-iterations.js';
import type { EventRecord } from '../../../../../src/features/observe/event-log-inspect.js';
import { parseMetrics } from '../../../../../src/features/observe/stats.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

function status(over: Partial<StatusDocument> = {}): StatusDocument {
  return {
    timestamp: '2026-03-01T11:59:00Z',
    loop_count: 3,
    calls_made_this_hour: 3,
    max_calls_per_hour: 100,
    tokens_used_this_hour: 0,
    max_tokens_per_hour: 0,
    last_action: 'completed',
    status: 'completed',
    exit_reason: 'plan_complete',
    next_reset: '',
    sandbox: { provider: 'none' },
    pid: 4242,
    started_at: '2026-03-01T11:50:00Z',
    project: '/p',
    backend: 'mock',
    session_id: 'sess-1',
    exit_code: 0,
    message: 'All tasks done',
    circuit: null,
    totals: { ...emptyTotals(), cost_usd: 0.35, input_tokens: 3000, output_tokens: 300, calls: 3 },
    limits: { max_loops: 0, max_cost_usd: 0, max_runtime_minutes: 0 },
    last_iteration: null,
    verify: null,
    waiting: null,
    quota_windows: [],
    max_tokens: 0,
    review: null,
    ...over,
  };
}

const METRICS = [
  {
    type: 'iteration',
    loop: 1,
    duration_ms: 40500,
    outcome: 'success',
    success: true,
    input_tokens: 1000,
    output_tokens: 200,
    cost_usd: 0.05,
    verify: { passed: false },
  },
  {
    type: 'iteration',
    loop: 2,
    duration_ms: 19500,
    outcome: 'success',
    success: true,
    input_tokens: 2000,
    output_tokens: 100,
    cost_usd: 0.15,
    verify: { passed: true },
  },
  { type: 'run', exit_reason: 'plan_complete', exit_code: 0, loops: 2, duration: 60, cost_usd: 0.2 },
  { type: 'iteration', loop: 1, duration_ms: 5000, outcome: 'success', success: true, input_tokens: 10, output_tokens: 5, cost_usd: 0.15 },
]
  .map((m) => JSON.stringify(m))
  .join('\n');

const event = (ts: number, name: string, data: Record<string, unknown>): EventRecord => ({ ts, event: name, data });

function files(over: Partial<LoopFiles> = {}): LoopFiles {
  return {
    id: 'main',
    title: 'project',
    queueState: null,
    location: '.',
    outcome: null,
    oddLogs: [],
    status: { kind: 'ok', value: status() },
    progress: { kind: 'missing' },
    circuit: { kind: 'ok', value: initialCircuit(NOW) },
    circuitHistory: { kind: 'missing' },
    gate: { kind: 'missing' },
    metrics: parseMetrics(METRICS),
    events: [],
    sessionId: null,
    alive: null,
    ...over,
  };
}

describe('iterationPoints', () => {
  it('numbers iterations across runs and keeps running totals of cost and tokens', () => {
    expect(iterationPoints(parseMetrics(METRICS))).toEqual([
      {
        index: 1,
        loop: 1,
        durationSec: 40.5,
        costUsd: 0.05,
        tokens: 1200,
        cumulativeCostUsd: 0.05,
        cumulativeTokens: 1200,
        verifyPassed: false,
        outcome: 'success',
      },
      {
        index: 2,
        loop: 2,
        durationSec: 19.5,
        costUsd: 0.15,
        tokens: 2100,
        cumulativeCostUsd: 0.2,
        cumulativeTokens: 3300,
        verifyPassed: true,
        outcome: 'success',
      },
      { index: 3, loop: 1, durationSec: 5, costUsd: 0.15, tokens: 15, cumulativeCostUsd: 0.35, cumulativeTokens: 3315, verifyPassed: null, outcome: 'success' },
    ]);
  });

  it(`keeps the last ${DASHBOARD_CHART_POINTS} points, with totals over the whole file`, () => {
    const lines = Array.from({ length: DASHBOARD_CHART_POINTS + 10 }, (_, i) => JSON.stringify({ type: 'iteration', loop: i + 1, success: true, cost_usd: 1 }));
    const points = iterationPoints(parseMetrics(lines.join('\n')));
    expect(points).toHaveLength(DASHBOARD_CHART_POINTS);
    expect(points[0]).toMatchObject({ index: 11, cumulativeCostUsd: 11 });
    expect(points.at(-1)).toMatchObject({ index: DASHBOARD_CHART_POINTS + 10, cumulativeCostUsd: DASHBOARD_CHART_POINTS + 10 });
  });
});

describe('recentIterations', () => {
  const events = [
    event(1, 'loop.start', { backend: 'mock' }),
    event(2, 'checkpoint.created', { iteration: 1, id: 'cp1' }),
    event(2, 'iteration.start', { iteration: 1 }),
    event(3, 'analysis', { iteration: 1, summary: 'Wrote the parser', files_changed: 2 }),
    event(4, 'verify.result', { iteration: 1, passed: false }),
    event(5, 'iteration.end', { iteration: 1, outcome: 'success', result: 'verify failed', success: false, duration_ms: 40500 }),
    event(6, 'checkpoint.created', { iteration: 2, id: 'cp2' }),
    event(6, 'iteration.start', { iteration: 2 }),
    event(8, 'checkpoint.dropped', { iteration: 2, id: 'cp2' }),
    event(7, 'analysis', { iteration: 2, summary: 'Fixed the test', files_changed: 1 }),
    event(8, 'verify.result', { iteration: 2, passed: true }),
    event(9, 'iteration.end', { iteration: 2, outcome: 'success', result: 'progress', success: true, duration_ms: 19500 }),
    // A second run starts its numbers again.
    event(10, 'iteration.start', { iteration: 1 }),
    event(11, 'analysis', { iteration: 1, summary: 'Nothing left', files_changed: 0 }),
  ];

  it('lists the iterations newest first, a new run starting a new entry', () => {
    expect(recentIterations(events)).toEqual([
      { iteration: 1, result: '', success: null, summary: 'Nothing left', filesChanged: 0, verifyPassed: null, durationSec: null },
      { iteration: 2, result: 'progress', success: true, summary: 'Fixed the test', filesChanged: 1, verifyPassed: true, durationSec: 19.5 },
      { iteration: 1, result: 'verify failed', success: false, summary: 'Wrote the parser', filesChanged: 2, verifyPassed: false, durationSec: 40.5 },
    ]);
  });

  it('keeps only the last `limit` iterations', () => {
    expect(recentIterations(events, 1).map((i) => i.summary)).toEqual(['Nothing left']);
  });

  it('a recording that starts in the middle of an iteration still groups its events', () => {
    expect(recentIterations([event(1, 'iteration.end', { iteration: 7, outcome: 'success', success: true, duration_ms: 1000 })])).toEqual([
      { iteration: 7, result: 'success', success: true, summary: '', filesChanged: null, verifyPassed: null, durationSec: 1 },
    ]);
  });
});

describe('buildLoopView', () => {
  it('a finished loop: its exit reason, totals, charts and no running call', () => {
    const view = buildLoopView(
      files({
        progress: {
          kind: 'ok',
          value: {
            status: 'executing',
            indicator: '',
            elapsed_seconds: 5,
            last_output: '',
            timestamp: '',
            loop: 3,
            current_tool: 'Bash',
            tool_uses: 1,
            started_at: '2026-03-01T11:59:00Z',
          },
        },
      }),
      NOW,
    );
    expect(view.state).toMatchObject({
      status: 'completed',
      exitReason: 'plan_complete',
      exitCode: 0,
      finished: true,
      loopCount: 3,
      callsThisHour: 3,
      maxCallsPerHour: 100,
      backend: 'mock',
      sessionId: 'sess-1',
    });
    expect(view.totals).toMatchObject({ costUsd: 0.35, inputTokens: 3000, outputTokens: 300, calls: 3 });
    expect(view.iterations).toHaveLength(3);
    // progress.json left "executing" by a loop that was killed is not a running call once status says finished.
    expect(view.call).toBeNull();
    expect(view.started).toBe(true);
    expect(view.problems).toEqual([]);
  });

  it('a running loop: the current tool and the call elapsed time from its start', () => {
    const running = status({ status: 'running', exit_reason: '', exit_code: null, last_action: 'executing' });
    const view = buildLoopView(
      files({
        status: { kind: 'ok', value: running },
        alive: true,
        progress: {
          kind: 'ok',
          value: {
            status: 'executing',
            indicator: '⠋',
            elapsed_seconds: 3,
            last_output: 'editing',
            timestamp: '',
            loop: 4,
            current_tool: 'Edit',
            tool_uses: 2,
            started_at: '2026-03-01T11:58:30Z',
          },
        },
      }),
      NOW,
    );
    expect(view.state).toMatchObject({ finished: false, alive: true });
    expect(view.call).toEqual({ tool: 'Edit', toolUses: 2, elapsedSeconds: 90, startedAt: '2026-03-01T11:58:30Z', lastOutput: 'editing' });
  });

  it('the circuit with its history, newest first', () => {
    const circuit = { ...initialCircuit(NOW), state: 'HALF_OPEN' as const, reason: 'no progress in 2 loops', consecutive_no_progress: 2, total_opens: 1 };
    const history = [
      { timestamp: '2026-03-01T11:00:00Z', loop: 3, from_state: 'CLOSED' as const, to_state: 'HALF_OPEN' as const, reason: 'no progress' },
      { timestamp: '2026-03-01T11:10:00Z', loop: 5, from_state: 'HALF_OPEN' as const, to_state: 'OPEN' as const, reason: 'stuck' },
    ];
    const view = buildLoopView(files({ circuit: { kind: 'ok', value: circuit }, circuitHistory: { kind: 'ok', value: history } }), NOW);
    expect(view.circuit).toMatchObject({ state: 'HALF_OPEN', reason: 'no progress in 2 loops', noProgress: 2, totalOpens: 1 });
    expect(view.circuit.history.map((h) => `${h.loop}:${h.from}->${h.to}`)).toEqual(['5:HALF_OPEN->OPEN', '3:CLOSED->HALF_OPEN']);
  });

  it('a paused verify gate with the end of its last failure', () => {
    const failure = {
      command: 'npm test',
      passed: false,
      exitCode: 1,
      signal: null,
      timedOut: false,
      durationMs: 900,
      stdout: `${'x'.repeat(3000)}\nFAIL parser.test.ts`,
      stderr: '',
    };
    const gate: GateState = { gateId: 'g1', command: 'npm test', attempt: 3, maxAttempts: 3, results: [failure], status: 'escalated' };
    const view = buildLoopView(files({ gate: { kind: 'ok', value: gate } }), NOW);
    expect(view.verify).toMatchObject({ command: 'npm test', status: 'escalated', attempt: 3, maxAttempts: 3, paused: true, lastPassed: false });
    expect(view.verify?.lastFailureTail.endsWith('FAIL parser.test.ts')).toBe(true);
    expect(view.verify?.lastFailureTail.length).toBeLessThanOrEqual(1501);
  });

  it('a loop that never ran: no status, neutral values', () => {
    const view = buildLoopView(files({ status: { kind: 'missing' }, metrics: parseMetrics(''), circuit: { kind: 'missing' } }), NOW);
    expect(view).toMatchObject({
      started: false,
      state: { status: 'not started', finished: false },
      iterations: [],
      verify: null,
      circuit: { state: 'CLOSED', history: [] },
    });
  });

  it('names each file that could not be read', () => {
    const view = buildLoopView(
      files({
        status: { kind: 'corrupt', reason: 'not valid JSON' },
        gate: { kind: 'corrupt', reason: 'attempt is not a whole number ≥ 0' },
        metrics: parseMetrics('garbage\n{}'),
      }),
      NOW,
    );
    expect(view.problems).toEqual([
      'status.json: not valid JSON',
      '.verify_gate: attempt is not a whole number ≥ 0',
      'metrics.jsonl: 2 lines skipped (not a metrics record)',
    ]);
    expect(view.started).toBe(false);
  });
});

describe('describeState: what the badge says and what the loop waits for', () => {
  const running = { ...buildLoopView(files({ status: { kind: 'ok', value: status({ status: 'running', exit_reason: '', exit_code: null }) } }), NOW).state };
  const gate = { command: 'npm test', status: 'escalated', attempt: 3, maxAttempts: 3, paused: true, lastPassed: false, lastFailureTail: '' };
  it.each([
    ['a loop that never ran', { ...running, status: 'not started' }, false, null, { label: 'not started', tone: 'idle', waitingFor: null }],
    ['a running loop', { ...running, alive: true }, true, null, { label: 'running', tone: 'live', waitingFor: null }],
    // Between two iterations status.json holds the last one's verdict: the loop itself runs on.
    [
      'a running loop whose last iteration failed (after a retry)',
      { ...running, status: 'error', alive: true },
      true,
      null,
      { label: 'running', tone: 'live' },
    ],
    ['a running loop whose last iteration passed', { ...running, status: 'success', alive: true }, true, null, { label: 'running', tone: 'live' }],
    [
      'a running loop whose gate waits for an answer',
      { ...running, alive: true, message: 'Loop #3: Claude is working' },
      true,
      gate,
      { label: 'waiting for an answer', tone: 'warn', waitingFor: 'an answer to the verify gate (npm test): retry, skip or abort' },
    ],
    [
      'a finished run with a paused gate',
      { ...running, finished: true, exitCode: 6, status: 'stopped', alive: null },
      true,
      gate,
      { label: 'stopped', tone: 'bad', waitingFor: null },
    ],
    ['a loop gone without an end', { ...running, status: 'error', alive: false }, true, null, { label: 'error', tone: 'bad' }],
    [
      'a loop waiting for the rate limit',
      { ...running, status: 'waiting', alive: true, waiting: { reason: 'rate_limit', until: '2026-03-01T13:00:00Z', message: 'Rate limit reached' } },
      true,
      null,
      { label: 'waiting', tone: 'warn', waitingFor: 'rate_limit until 2026-03-01T13:00:00Z: Rate limit reached' },
    ],
    ['a finished loop', { ...running, finished: true, exitCode: 0, status: 'completed' }, true, null, { label: 'completed', tone: 'good' }],
  ] as const)('%s', (_name, state, started, verify, expected) => {
    expect(describeState(state, started, verify)).toMatchObject(expected);
  });
});

describe('buildLoopView: the reviewer pass', () => {
  it('has no review without --review', () => {
    expect(buildLoopView(files(), NOW).review).toBeNull();
  });

  it('shows the reviews, the last verdict and its findings from status.json', () => {
    const review = {
      backend: 'codex',
      reviews: 2,
      rejected_in_a_row: 2,
      max_rejected: 3,
      last_verdict: 'CHANGES_REQUESTED' as const,
      findings: ['add a test'],
      cost_usd: 0.03,
      input_tokens: 10,
      output_tokens: 2,
    };
    expect(buildLoopView(files({ status: { kind: 'ok', value: status({ review }) } }), NOW).review).toEqual({
      backend: 'codex',
      reviews: 2,
      rejected_in_a_row: 2,
      max_rejected: 3,
      last_verdict: 'CHANGES_REQUESTED',
      findings: ['add a test'],
      cost_usd: 0.03,
    });
  });
});
