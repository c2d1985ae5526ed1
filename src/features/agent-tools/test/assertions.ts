import { globToRegExp, MAX_PATTERN_CHARS, type EventRecord } from '../../observe/event-log-inspect.js';
import { errorMessage } from '../../../errors.js';

/**
 * test_assert's evaluation, pure: the caller
 * gathers the facts (the last run, the session records, a file reader whose
 * paths it has already checked) and every assertion is evaluated — a failure
 * never stops the others. A pattern that does not compile fails its own
 * assertion with the compiler's message instead of failing the call.
 *
 * Topics are Ralph's session event names (`agent.result`, `verify.result`, …)
 * and may be globs (`verify.*`); see session-inspect.ts for the mapping.
 */

export type Assertion =
  | { type: 'exit_code'; expected: number }
  | { type: 'termination_reason'; expected: string }
  | { type: 'iterations'; min?: number | undefined; max?: number | undefined; exact?: number | undefined }
  | { type: 'file_exists'; path: string }
  | { type: 'file_contains'; path: string; pattern: string }
  | { type: 'file_not_contains'; path: string; pattern: string }
  | { type: 'event_occurred'; topic: string; payload_pattern?: string | undefined }
  | { type: 'event_sequence'; topics: string[] }
  | { type: 'event_count'; topic: string; min?: number | undefined; max?: number | undefined; exact?: number | undefined }
  | { type: 'scratchpad_contains'; pattern: string }
  | { type: 'no_event'; topic: string }
  | { type: 'duration'; max_secs: number };

export type AssertionType = Assertion['type'];

export const ASSERTION_TYPES: readonly AssertionType[] = [
  'exit_code',
  'termination_reason',
  'iterations',
  'file_exists',
  'file_contains',
  'file_not_contains',
  'event_occurred',
  'event_sequence',
  'event_count',
  'scratchpad_contains',
  'no_event',
  'duration',
];

/** What a test_run recorded, as assertions read it. */
export interface RunFacts {
  exit_code: number | null;
  termination_reason: string;
  iterations: number;
  elapsed_secs: number;
}

export type FileRead = { kind: 'file'; text: string } | { kind: 'missing' } | { kind: 'unreadable'; reason: string };

export interface AssertionFacts {
  /** Undefined when no test_run was recorded for the workspace. */
  run: RunFacts | undefined;
  /** Records of session.jsonl, or why there are none. */
  session: { records: readonly EventRecord[] } | { unavailable: string };
  /** Reads a workspace file by its (already checked) relative path. */
  readFile(path: string): FileRead;
  /** Relative path of the scratchpad (Ralph's fix plan). */
  scratchpadPath: string;
}

export interface AssertionResult {
  assertion: AssertionType;
  passed: boolean;
  message?: string;
  [detail: string]: unknown;
}

export interface AssertionReport {
  passed: boolean;
  results: AssertionResult[];
  failed_count: number;
}

/** Compiles a user's regular expression; a bad one is a message, never a throw. */
export function compileUserPattern(pattern: string, field = 'pattern'): RegExp | string {
  if (pattern.length > MAX_PATTERN_CHARS) return `${field} is longer than ${MAX_PATTERN_CHARS} characters`;
  try {
    return new RegExp(pattern, 'm');
  } catch (error) {
    return `${field} is not a valid regular expression: ${errorMessage(error)}`;
  }
}

/**
 * ralph-orchestrator's termination words and the exit reasons they stand
 * for, so an assertion written with ralph-orchestrator's words still passes.
 */
const SEED_REASONS: Record<string, readonly string[]> = {
  completionpromise: ['plan_complete', 'project_complete', 'completion_signals', 'test_saturation'],
  completed: ['plan_complete', 'project_complete', 'completion_signals', 'test_saturation'],
  maxiterations: ['max_loops'],
  maxruntime: ['max_runtime'],
  maxcost: ['max_cost'],
  interrupted: ['interrupted'],
  stopped: ['stop_requested'],
  cancelled: ['stop_requested'],
};

function seedKey(word: string): string {
  return word.toLowerCase().replace(/[^a-z]/g, '');
}

/** Whether `actual` (an exit reason) satisfies `expected` (an exit reason or one of ralph-orchestrator's words). */
export function reasonMatches(expected: string, actual: string): { passed: boolean; via?: string } {
  if (expected === actual) return { passed: true };
  const aliases = SEED_REASONS[seedKey(expected)];
  if (aliases?.includes(actual)) return { passed: true, via: `"${expected}" is another name for ${aliases.join(' / ')}` };
  return { passed: false };
}

function checkRange(actual: number, bounds: { min?: number | undefined; max?: number | undefined; exact?: number | undefined }): string | undefined {
  if (bounds.exact !== undefined && actual !== bounds.exact) return `expected exactly ${bounds.exact}, got ${actual}`;
  if (bounds.min !== undefined && actual < bounds.min) return `expected at least ${bounds.min}, got ${actual}`;
  if (bounds.max !== undefined && actual > bounds.max) return `expected at most ${bounds.max}, got ${actual}`;
  return undefined;
}

function rangeDetails(bounds: { min?: number | undefined; max?: number | undefined; exact?: number | undefined }): Record<string, number> {
  const out: Record<string, number> = {};
  if (bounds.min !== undefined) out['min'] = bounds.min;
  if (bounds.max !== undefined) out['max'] = bounds.max;
  if (bounds.exact !== undefined) out['exact'] = bounds.exact;
  return out;
}

const NO_RUN = 'no test_run has been recorded for this workspace; call test_run first';

function result(assertion: AssertionType, passed: boolean, details: Record<string, unknown>, message?: string): AssertionResult {
  return { assertion, passed, ...details, ...(message !== undefined ? { message } : {}) };
}

function evaluateRun(
  a: Extract<Assertion, { type: 'exit_code' | 'termination_reason' | 'iterations' | 'duration' }>,
  run: RunFacts | undefined,
): AssertionResult {
  switch (a.type) {
    case 'exit_code':
      if (!run) return result(a.type, false, { expected: a.expected, actual: null }, NO_RUN);
      return run.exit_code === a.expected
        ? result(a.type, true, { expected: a.expected, actual: run.exit_code })
        : result(a.type, false, { expected: a.expected, actual: run.exit_code }, `exit code was ${String(run.exit_code)}, expected ${a.expected}`);
    case 'termination_reason': {
      if (!run) return result(a.type, false, { expected: a.expected, actual: null }, NO_RUN);
      const match = reasonMatches(a.expected, run.termination_reason);
      if (match.passed) return result(a.type, true, { expected: a.expected, actual: run.termination_reason, ...(match.via ? { note: match.via } : {}) });
      return result(
        a.type,
        false,
        { expected: a.expected, actual: run.termination_reason },
        `the run ended with ${run.termination_reason}, expected ${a.expected}`,
      );
    }
    case 'iterations': {
      const details = rangeDetails(a);
      if (!run) return result(a.type, false, { ...details, actual: null }, NO_RUN);
      const problem = checkRange(run.iterations, a);
      return result(a.type, problem === undefined, { ...details, actual: run.iterations }, problem);
    }
    case 'duration': {
      if (!run) return result(a.type, false, { max_secs: a.max_secs, actual: null }, NO_RUN);
      const passed = run.elapsed_secs <= a.max_secs;
      return result(
        a.type,
        passed,
        { max_secs: a.max_secs, actual: run.elapsed_secs },
        passed ? undefined : `the run took ${run.elapsed_secs}s, more than ${a.max_secs}s`,
      );
    }
  }
}

function evaluateFile(
  a: Extract<Assertion, { type: 'file_exists' | 'file_contains' | 'file_not_contains' | 'scratchpad_contains' }>,
  facts: AssertionFacts,
): AssertionResult {
  const path = a.type === 'scratchpad_contains' ? facts.scratchpadPath : a.path;
  const details: Record<string, unknown> = a.type === 'file_exists' ? { path } : { path, pattern: a.pattern };
  const read = facts.readFile(path);
  if (read.kind === 'missing') return result(a.type, false, details, `file not found: ${path}`);
  if (read.kind === 'unreadable') return result(a.type, false, details, `cannot read ${path}: ${read.reason}`);
  if (a.type === 'file_exists') return result(a.type, true, details);
  const regex = compileUserPattern(a.pattern);
  if (typeof regex === 'string') return result(a.type, false, details, regex);
  const found = regex.test(read.text);
  if (a.type === 'file_not_contains') return result(a.type, !found, details, found ? `${path} contains /${a.pattern}/` : undefined);
  return result(a.type, found, details, found ? undefined : `${path} does not contain /${a.pattern}/`);
}

function topicRegExp(topic: string): RegExp | string {
  if (topic.length > MAX_PATTERN_CHARS) return `topic is longer than ${MAX_PATTERN_CHARS} characters`;
  return globToRegExp(topic);
}

function evaluateEvents(
  a: Extract<Assertion, { type: 'event_occurred' | 'event_sequence' | 'event_count' | 'no_event' }>,
  facts: AssertionFacts,
): AssertionResult {
  const details: Record<string, unknown> = a.type === 'event_sequence' ? { topics: a.topics } : { topic: a.topic };
  if (a.type === 'event_occurred' && a.payload_pattern !== undefined) details['payload_pattern'] = a.payload_pattern;
  if (a.type === 'event_count') Object.assign(details, rangeDetails(a));
  if ('unavailable' in facts.session) return result(a.type, false, details, facts.session.unavailable);
  const records = facts.session.records;

  if (a.type === 'event_sequence') {
    const regexps = a.topics.map(topicRegExp);
    const bad = regexps.find((r): r is string => typeof r === 'string');
    if (bad !== undefined) return result(a.type, false, details, bad);
    // Earliest match for each topic in turn: if any subsequence exists, this finds it.
    let position = 0;
    const matchedAt: number[] = [];
    for (const [index, re] of (regexps as RegExp[]).entries()) {
      const found = records.findIndex((r, i) => i >= position && re.test(r.event));
      if (found === -1) {
        const after = index === 0 ? '' : ` after "${a.topics[index - 1] ?? ''}" (record ${(matchedAt[index - 1] ?? 0) + 1})`;
        return result(
          a.type,
          false,
          { ...details, matched: index },
          `no "${a.topics[index] ?? ''}" event${after}; matched ${index} of ${a.topics.length} topics in order`,
        );
      }
      matchedAt.push(found);
      position = found + 1;
    }
    return result(a.type, true, { ...details, matched: a.topics.length, records: matchedAt.map((i) => i + 1) });
  }

  const topic = topicRegExp(a.topic);
  if (typeof topic === 'string') return result(a.type, false, details, topic);
  let matching = records.filter((r) => topic.test(r.event));
  if (a.type === 'event_occurred' && a.payload_pattern !== undefined) {
    const payload = compileUserPattern(a.payload_pattern, 'payload_pattern');
    if (typeof payload === 'string') return result(a.type, false, details, payload);
    matching = matching.filter((r) => payload.test(JSON.stringify(r.data)));
  }
  const count = matching.length;
  switch (a.type) {
    case 'event_occurred':
      return result(
        a.type,
        count > 0,
        { ...details, count },
        count > 0
          ? undefined
          : `no "${a.topic}" event${a.payload_pattern !== undefined ? ` whose data matches /${a.payload_pattern}/` : ''} in ${records.length} records`,
      );
    case 'no_event':
      return result(a.type, count === 0, { ...details, count }, count === 0 ? undefined : `"${a.topic}" occurred ${count} time(s)`);
    case 'event_count': {
      const problem = checkRange(count, a);
      return result(
        a.type,
        problem === undefined,
        { ...details, actual: count },
        problem === undefined ? undefined : `"${a.topic}" occurred ${count} time(s): ${problem}`,
      );
    }
  }
}

export function evaluateAssertion(a: Assertion, facts: AssertionFacts): AssertionResult {
  switch (a.type) {
    case 'exit_code':
    case 'termination_reason':
    case 'iterations':
    case 'duration':
      return evaluateRun(a, facts.run);
    case 'file_exists':
    case 'file_contains':
    case 'file_not_contains':
    case 'scratchpad_contains':
      return evaluateFile(a, facts);
    case 'event_occurred':
    case 'event_sequence':
    case 'event_count':
    case 'no_event':
      return evaluateEvents(a, facts);
  }
}

/** Evaluates every assertion (no short-circuit) and sums up. */
export function evaluateAssertions(assertions: readonly Assertion[], facts: AssertionFacts): AssertionReport {
  const results = assertions.map((a) => evaluateAssertion(a, facts));
  const failed = results.filter((r) => !r.passed).length;
  return { passed: failed === 0, results, failed_count: failed };
}
