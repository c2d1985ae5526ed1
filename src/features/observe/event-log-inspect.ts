import * as v from 'valibot';
import { sessionEventSchema, type SessionEvent } from '../../state/documents/session-event.js';
import { errorMessage } from '../../errors.js';

/**
 * Reading and filtering the event log (.ralph/logs/session.jsonl) in
 * the shapes the `test_inspect` tool returns.
 *
 * Mapping from test_inspect's vocabulary to ours: its records carry an
 * event *type* (`bus.publish`) and a *topic* inside the payload; ours have one
 * name (`verify.result`, `iteration.end`, …). Both "event type" and "topic"
 * therefore mean our event name: `event_types` matches it exactly, `topics`
 * by glob (`*` any run of characters, `?` one character), so
 * `topics: ["verify.*"]` selects `verify.result`. Ralph has no hats: the
 * timeline names the single actor "ralph" and `hats_used` stays empty.
 *
 * A record belongs to an iteration when its data carries `iteration`; records
 * without one (loop.start, wait.*, loop.exit) are outside every iteration:
 * iteration windows exclude them and the timeline does not group them.
 */

export type EventRecord = SessionEvent;

export interface EventLogRead {
  records: EventRecord[];
  /** The first line that is not a record (line 0: the file itself). */
  error?: { line: number; message: string };
  /** How many lines were not records (set with `error`, for a damaged file). */
  badLines?: number;
}

export interface EventFilter {
  event_types?: string[];
  topics?: string[];
  after_iteration?: number;
  before_iteration?: number;
  payload_pattern?: string;
}

export type InspectFormat = 'json' | 'summary' | 'timeline';

export interface InspectOptions {
  filter?: EventFilter;
  limit?: number;
  format?: InspectFormat;
}

export interface InspectJson {
  records: EventRecord[];
  total_matched: number;
  truncated: boolean;
}

export interface InspectSummary {
  total_events: number;
  by_type: Record<string, number>;
  by_topic: Record<string, number>;
  iterations: number;
  hats_used: string[];
  duration_secs: number;
}

export interface TimelineEntry {
  iteration: number;
  hat: string;
  events: string[];
  duration_ms: number;
}

export interface InspectTimeline {
  timeline: TimelineEntry[];
}

export type InspectResult = { ok: true; value: InspectJson | InspectSummary | InspectTimeline } | { ok: false; error: string };

export const DEFAULT_INSPECT_LIMIT = 100;
/** Longer patterns are refused: a pattern this size is a mistake, and bounds backtracking cost. */
export const MAX_PATTERN_CHARS = 1000;

/**
 * Why a line is not JSON, without quoting it: the engine's message repeats
 * part of the line, and the line may come from a file that is not ours.
 */
function jsonProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const position = /position (\d+)/.exec(message);
  if (position) return `not valid JSON (at character ${position[1]})`;
  if (/end of (JSON )?input|Unterminated/i.test(message)) return 'not valid JSON (cut off)';
  return 'not valid JSON';
}

/** Parses session.jsonl text; bad lines are skipped and the first is reported with its line number. */
export function parseEventRecords(text: string): EventLogRead {
  const records: EventRecord[] = [];
  let error: EventLogRead['error'];
  let badLines = 0;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    let problem: string | undefined;
    try {
      value = JSON.parse(line);
    } catch (e) {
      problem = jsonProblem(e);
    }
    if (problem === undefined) {
      const checked = v.safeParse(sessionEventSchema, value);
      if (checked.success) records.push(checked.output);
      else problem = checked.issues[0].message;
    }
    if (problem === undefined) return;
    badLines += 1;
    if (error === undefined) error = { line: index + 1, message: `line ${index + 1}: ${problem}` };
  });
  return error === undefined ? { records } : { records, error, badLines };
}

export function iterationOf(record: EventRecord): number | undefined {
  const n = record.data['iteration'];
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}

/** Glob → anchored RegExp: `*` any run of characters, `?` one; everything else literal. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

function compilePattern(pattern: string): RegExp | string {
  if (pattern.length > MAX_PATTERN_CHARS) return `payload_pattern is longer than ${MAX_PATTERN_CHARS} characters`;
  try {
    return new RegExp(pattern);
  } catch (e) {
    return `payload_pattern is not a valid regular expression: ${errorMessage(e)}`;
  }
}

const FORMATS: readonly string[] = ['json', 'summary', 'timeline'];

/** Tool input arrives as untrusted JSON; say what is wrong instead of misbehaving. */
function checkFilter(filter: EventFilter): string | undefined {
  const stringList = (v: unknown): boolean => v === undefined || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
  const number = (v: unknown): boolean => v === undefined || (typeof v === 'number' && Number.isFinite(v));
  if (!stringList(filter.event_types)) return 'filter.event_types must be an array of strings';
  if (!stringList(filter.topics)) return 'filter.topics must be an array of strings (glob patterns)';
  if (!number(filter.after_iteration)) return 'filter.after_iteration must be a number';
  if (!number(filter.before_iteration)) return 'filter.before_iteration must be a number';
  if (filter.payload_pattern !== undefined && typeof filter.payload_pattern !== 'string') return 'filter.payload_pattern must be a string';
  return undefined;
}

function buildMatcher(filter: EventFilter): ((r: EventRecord) => boolean) | string {
  const problem = checkFilter(filter);
  if (problem !== undefined) return problem;
  const payload = filter.payload_pattern === undefined ? undefined : compilePattern(filter.payload_pattern);
  if (typeof payload === 'string') return payload;
  const types = filter.event_types ? new Set(filter.event_types) : undefined;
  const topics = filter.topics?.map(globToRegExp);
  const { after_iteration: after, before_iteration: before } = filter;
  return (r) => {
    if (types && !types.has(r.event)) return false;
    if (topics && !topics.some((t) => t.test(r.event))) return false;
    if (after !== undefined || before !== undefined) {
      const it = iterationOf(r);
      if (it === undefined) return false;
      if (after !== undefined && it <= after) return false;
      if (before !== undefined && it >= before) return false;
    }
    if (payload && !payload.test(JSON.stringify(r.data))) return false;
    return true;
  };
}

function countBy(records: readonly EventRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) counts[r.event] = (counts[r.event] ?? 0) + 1;
  return counts;
}

function summarize(records: readonly EventRecord[]): InspectSummary {
  const iterations = new Set(records.map(iterationOf).filter((n): n is number => n !== undefined));
  const first = records[0];
  const last = records[records.length - 1];
  const span = first && last ? Math.max(0, last.ts - first.ts) / 1000 : 0;
  return {
    total_events: records.length,
    by_type: countBy(records),
    by_topic: countBy(records),
    iterations: iterations.size,
    hats_used: [],
    duration_secs: Math.round(span * 1000) / 1000,
  };
}

function buildTimeline(records: readonly EventRecord[]): InspectTimeline {
  const groups = new Map<number, EventRecord[]>();
  for (const r of records) {
    const it = iterationOf(r);
    if (it === undefined) continue;
    const group = groups.get(it) ?? [];
    group.push(r);
    groups.set(it, group);
  }
  const timeline = [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([iteration, group]): TimelineEntry => {
      // The loop's own measure when it recorded one; else the span of the group's records.
      const end = group.find((r) => r.event === 'iteration.end');
      const recorded = end?.data['duration_ms'];
      const first = group[0]?.ts ?? 0;
      const last = group[group.length - 1]?.ts ?? first;
      const duration = typeof recorded === 'number' && Number.isFinite(recorded) ? recorded : last - first;
      return { iteration, hat: 'ralph', events: group.map((r) => r.event), duration_ms: duration };
    });
  return { timeline };
}

/**
 * Filters records and shapes them as the test_inspect tool returns them. A bad
 * filter (invalid regex, bad limit) is an error value, never a throw.
 * `limit` applies to the json format's records; summary and timeline cover
 * every match.
 */
export function inspectEventLog(records: readonly EventRecord[], options: InspectOptions = {}): InspectResult {
  const limit = options.limit ?? DEFAULT_INSPECT_LIMIT;
  if (!Number.isInteger(limit) || limit < 0) return { ok: false, error: `limit must be a whole number ≥ 0 (got ${String(limit)})` };
  const format = options.format ?? 'json';
  if (!FORMATS.includes(format)) return { ok: false, error: `format must be one of ${FORMATS.join(', ')} (got ${JSON.stringify(format)})` };
  const matcher = buildMatcher(options.filter ?? {});
  if (typeof matcher === 'string') return { ok: false, error: matcher };
  const matched = records.filter(matcher);
  if (format === 'summary') return { ok: true, value: summarize(matched) };
  if (format === 'timeline') return { ok: true, value: buildTimeline(matched) };
  return { ok: true, value: { records: matched.slice(0, limit), total_matched: matched.length, truncated: matched.length > limit } };
}
