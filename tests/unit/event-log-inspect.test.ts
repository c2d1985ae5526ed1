import { describe, expect, it } from 'vitest';
import {
  globToRegExp,
  inspectEventLog,
  parseEventRecords,
  type InspectJson,
  type InspectSummary,
  type InspectTimeline,
  type EventRecord,
} from '../../src/features/observe/event-log-inspect.js';

const T0 = 1_767_000_000_000;
const rec = (offsetMs: number, event: string, data: Record<string, unknown> = {}): EventRecord => ({ ts: T0 + offsetMs, event, data });

/** A three-iteration run: failing verify in 1, checkpoint restore and breaker warning in 2, exit after 3. */
const RUN: EventRecord[] = [
  rec(0, 'loop.start', { project: '/p', backend: 'mock', max_loops: 5 }),
  rec(10, 'iteration.start', { iteration: 1 }),
  rec(20, 'checkpoint.created', { iteration: 1, id: 'c1' }),
  rec(1000, 'agent.result', { iteration: 1, end: 'exited', exit_code: 0, is_error: false, session_id: 's1', cost_usd: 0.01 }),
  rec(1100, 'analysis', { iteration: 1, exit_signal: false, status: 'IN_PROGRESS', files_changed: 2, summary: 'added parser' }),
  rec(2000, 'verify.result', { iteration: 1, attempt: 1, max_attempts: 3, passed: false, exit_code: 1, timed_out: false, duration_ms: 900 }),
  rec(2100, 'iteration.end', { iteration: 1, outcome: 'success', duration_ms: 2090 }),
  rec(2200, 'wait.start', { reason: 'pause', until: '2026-01-01T00:00:02Z' }),
  rec(4200, 'wait.end', { reason: 'pause' }),
  rec(4300, 'iteration.start', { iteration: 2 }),
  rec(5000, 'agent.result', { iteration: 2, end: 'exited', exit_code: 0, is_error: false, session_id: 's1', cost_usd: 0.02 }),
  rec(6000, 'verify.result', { iteration: 2, attempt: 2, max_attempts: 3, passed: false, exit_code: 1, timed_out: false, duration_ms: 800 }),
  rec(6100, 'checkpoint.restored', { iteration: 2, id: 'c1' }),
  rec(6200, 'circuit.transition', { iteration: 2, from: 'CLOSED', to: 'HALF_OPEN', reason: 'Monitoring: 2 loops without progress' }),
  rec(6300, 'iteration.start', { iteration: 3 }),
  rec(7300, 'verify.result', { iteration: 3, attempt: 3, max_attempts: 3, passed: true, exit_code: 0, timed_out: false, duration_ms: 700 }),
  rec(7400, 'iteration.end', { iteration: 3, outcome: 'success' }),
  rec(7500, 'loop.exit', { reason: 'plan_complete', exit_code: 0, iterations: 3, elapsed_secs: 7.5 }),
];

function ok<T>(result: ReturnType<typeof inspectEventLog>): T {
  if (!result.ok) throw new Error(result.error);
  return result.value as T;
}

describe('parseEventRecords', () => {
  it('reads records and names the first corrupt line by number', () => {
    const text = [JSON.stringify(RUN[0]), '', JSON.stringify(RUN[1]), '{"ts": 1, "event": ', JSON.stringify(RUN[2]), '{"ts": "x", "event": "a"}'].join('\n');
    const read = parseEventRecords(text);
    expect(read.records).toHaveLength(3);
    expect(read.error).toEqual({ line: 4, message: expect.stringMatching(/^line 4: not valid JSON/) });
  });

  it.each([
    ['[1,2]', 'not a JSON object'],
    ['{"ts": 1}', '"event" is not a non-empty string'],
    ['{"event": "a"}', '"ts" is not a number'],
    ['{"ts": 1, "event": "a", "data": [1]}', '"data" is not an object'],
  ])('%s → %s', (line, message) => {
    expect(parseEventRecords(`${JSON.stringify(RUN[0])}\n${line}\n`).error).toEqual({ line: 2, message: `line 2: ${message}` });
  });

  it('gives a record without data an empty object, and a clean file no error', () => {
    const read = parseEventRecords('{"ts": 5, "event": "loop.start"}\n');
    expect(read).toEqual({ records: [{ ts: 5, event: 'loop.start', data: {} }] });
  });
});

describe('inspectEventLog format json', () => {
  it('returns every record by default, not truncated', () => {
    expect(ok<InspectJson>(inspectEventLog(RUN))).toEqual({ records: RUN, total_matched: RUN.length, truncated: false });
  });

  it('limit keeps the first records and says truncated', () => {
    const many = Array.from({ length: 50 }, (_, i) => rec(i, 'analysis', { iteration: i + 1 }));
    const out = ok<InspectJson>(inspectEventLog(many, { limit: 10 }));
    expect(out.records).toEqual(many.slice(0, 10));
    expect(out.total_matched).toBe(50);
    expect(out.truncated).toBe(true);
    expect(ok<InspectJson>(inspectEventLog(many, { limit: 50 })).truncated).toBe(false);
  });

  it('event_types match exactly', () => {
    const out = ok<InspectJson>(inspectEventLog(RUN, { filter: { event_types: ['verify.result', 'loop.exit'] } }));
    expect(out.records.map((r) => r.event)).toEqual(['verify.result', 'verify.result', 'verify.result', 'loop.exit']);
    expect(ok<InspectJson>(inspectEventLog(RUN, { filter: { event_types: ['verify'] } })).total_matched).toBe(0);
  });

  it('topics match by glob', () => {
    const events = (topics: string[]) => ok<InspectJson>(inspectEventLog(RUN, { filter: { topics } })).records.map((r) => r.event);
    expect(events(['checkpoint.*'])).toEqual(['checkpoint.created', 'checkpoint.restored']);
    expect(events(['verify.*', 'circuit.*'])).toEqual(['verify.result', 'verify.result', 'circuit.transition', 'verify.result']);
    expect(events(['*.end'])).toEqual(['iteration.end', 'wait.end', 'iteration.end']);
    expect(events(['wait.???'])).toEqual(['wait.end']);
    expect(events(['*'])).toHaveLength(RUN.length);
  });

  it('iteration windows are exclusive and leave out records outside iterations', () => {
    const iterations = (filter: Record<string, number>) =>
      ok<InspectJson>(inspectEventLog(RUN, { filter })).records.map((r) => (r.data as { iteration?: number }).iteration);
    expect(new Set(iterations({ after_iteration: 1 }))).toEqual(new Set([2, 3]));
    expect(new Set(iterations({ before_iteration: 2 }))).toEqual(new Set([1]));
    expect(new Set(iterations({ after_iteration: 1, before_iteration: 3 }))).toEqual(new Set([2]));
    expect(iterations({ after_iteration: 0 })).not.toContain(undefined);
  });

  it('payload_pattern is a regex over the data', () => {
    const out = ok<InspectJson>(inspectEventLog(RUN, { filter: { payload_pattern: '"passed":\\s*false' } }));
    expect(out.records.map((r) => r.data['attempt'])).toEqual([1, 2]);
    const combined = ok<InspectJson>(inspectEventLog(RUN, { filter: { topics: ['*'], payload_pattern: 'HALF_OPEN', after_iteration: 1 } }));
    expect(combined.records.map((r) => r.event)).toEqual(['circuit.transition']);
  });

  it.each([
    [{ filter: { payload_pattern: '(unclosed' } }, /payload_pattern is not a valid regular expression/],
    [{ filter: { payload_pattern: 'a'.repeat(1001) } }, /longer than 1000/],
    [{ limit: -1 }, /limit must be a whole number/],
    [{ limit: 2.5 }, /limit must be a whole number/],
    [{ format: 'xml' }, /format must be one of json, summary, timeline/],
    [{ filter: { topics: 'verify.*' } }, /filter.topics must be an array/],
    [{ filter: { after_iteration: '2' } }, /after_iteration must be a number/],
  ])('bad input %j is an error value, not a throw', (options, message) => {
    const result = inspectEventLog(RUN, options as never);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});

describe('inspectEventLog format summary', () => {
  it('counts by event name, iterations and the duration', () => {
    const out = ok<InspectSummary>(inspectEventLog(RUN, { format: 'summary' }));
    expect(out.total_events).toBe(18);
    expect(out.by_type).toMatchObject({ 'verify.result': 3, 'iteration.start': 3, 'loop.exit': 1, 'checkpoint.created': 1 });
    expect(out.by_topic).toEqual(out.by_type);
    expect(out.iterations).toBe(3);
    expect(out.hats_used).toEqual([]);
    expect(out.duration_secs).toBe(7.5);
  });

  it('summarises only what the filter matched, ignoring limit', () => {
    const out = ok<InspectSummary>(inspectEventLog(RUN, { format: 'summary', limit: 1, filter: { topics: ['verify.*'] } }));
    expect(out).toEqual({
      total_events: 3,
      by_type: { 'verify.result': 3 },
      by_topic: { 'verify.result': 3 },
      iterations: 3,
      hats_used: [],
      duration_secs: 5.3,
    });
  });

  it('is empty for no records', () => {
    expect(ok<InspectSummary>(inspectEventLog([], { format: 'summary' }))).toEqual({
      total_events: 0,
      by_type: {},
      by_topic: {},
      iterations: 0,
      hats_used: [],
      duration_secs: 0,
    });
  });
});

describe('inspectEventLog format timeline', () => {
  it('groups events by iteration with durations', () => {
    const out = ok<InspectTimeline>(inspectEventLog(RUN, { format: 'timeline' }));
    expect(out.timeline).toEqual([
      {
        iteration: 1,
        hat: 'ralph',
        events: ['iteration.start', 'checkpoint.created', 'agent.result', 'analysis', 'verify.result', 'iteration.end'],
        duration_ms: 2090,
      },
      {
        iteration: 2,
        hat: 'ralph',
        events: ['iteration.start', 'agent.result', 'verify.result', 'checkpoint.restored', 'circuit.transition'],
        duration_ms: 1900,
      },
      { iteration: 3, hat: 'ralph', events: ['iteration.start', 'verify.result', 'iteration.end'], duration_ms: 1100 },
    ]);
  });

  it('respects the filter', () => {
    const out = ok<InspectTimeline>(inspectEventLog(RUN, { format: 'timeline', filter: { after_iteration: 2 } }));
    expect(out.timeline.map((t) => t.iteration)).toEqual([3]);
  });
});

describe('globToRegExp', () => {
  it('escapes regex characters and anchors the pattern', () => {
    expect(globToRegExp('a.b').test('aXb')).toBe(false);
    expect(globToRegExp('a.b').test('a.b')).toBe(true);
    expect(globToRegExp('verify.*').test('xverify.result')).toBe(false);
    expect(globToRegExp('(x)+').test('(x)+')).toBe(true);
  });
});
