import { isRecord as isRec } from '../../core/guards.js';
import { formatDuration } from '../../core/time-format.js';
import { formatCost, formatCount, formatUsd } from '../../ui/monitor-sections.js';

/**
 * ralph-stats: totals and averages over .ralph/logs/metrics.jsonl. Lines
 * without "type" are the original's shape and count as iterations; lines that
 * are not metrics records are skipped and counted, never fatal.
 */

export interface IterationMetric {
  kind: 'iteration';
  loop: number;
  /** Seconds. */
  duration: number;
  success: boolean;
  calls: number;
  /** How the agent call ended (`success`: it returned). */
  outcome: string;
  /** What the iteration amounted to (`verify failed, rolled back`); older lines get `success` or `failed`. */
  result: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  costUsd: number;
  /** The cost is an estimate from tokens and list prices (the agent reported none). */
  costEstimated: boolean;
  /** The call used tokens but its cost is unknown (no price for its model): costUsd is not its cost. */
  costUnknown: boolean;
  /** The agent that ran it; lines written before Ralph recorded it have none. */
  backend?: string;
  verify: { passed: boolean } | null;
}

export interface RunMetric {
  kind: 'run';
  exitReason: string;
  exitCode: number | null;
  loops: number;
  duration: number;
  costUsd: number;
}

/** One reviewer call (--review). */
export interface ReviewMetric {
  kind: 'review';
  verdict: string;
  costUsd: number;
  costEstimated: boolean;
  inputTokens: number;
  outputTokens: number;
}

export type MetricsEntry = IterationMetric | RunMetric | ReviewMetric;

export interface ParsedMetrics {
  entries: MetricsEntry[];
  /** 1-based numbers of lines that are not metrics records. */
  skippedLines: number[];
}

export interface MetricsStats {
  // The original's summary keys, kept for scripts that read them.
  total_loops: number;
  successful: number;
  avg_duration: number;
  total_calls: number;
  iterations: number;
  failed: number;
  /** successful / iterations, 0..1. */
  success_rate: number;
  total_duration: number;
  tokens: { input: number; output: number; cache_read: number; cache_creation: number; total: number };
  /** `estimated`: part of the total is an estimate from tokens and list prices. */
  cost_usd: { total: number; per_iteration: number; estimated: boolean; unknown_iterations: number };
  /** Per agent, for the iterations that recorded which agent ran them. */
  backends: Record<string, { iterations: number; cost_usd: number; estimated: boolean; unknown_iterations: number; tokens: number }>;
  verify: { runs: number; passed: number; failed: number; pass_rate: number };
  /** How the agent calls ended (`success`: the call returned, whatever the iteration amounted to). */
  outcomes: Record<string, number>;
  /** What the iterations amounted to, by their result. */
  results: Record<string, number>;
  exit_reasons: Record<string, number>;
  runs: number;
  skipped_lines: number;
  /** The reviewer's calls (--review); their cost is in cost_usd.total too, their tokens in tokens. */
  reviews: { total: number; approved: number; changes_requested: number; cost_usd: number; tokens: number };
}

type Rec = Record<string, unknown>;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function toIteration(o: Rec): IterationMetric | undefined {
  const outcome = typeof o['outcome'] === 'string' ? o['outcome'] : undefined;
  const recorded = typeof o['success'] === 'boolean' ? o['success'] : outcome !== undefined ? outcome === 'success' : undefined;
  if (recorded === undefined) return undefined;
  const durationMs = num(o['duration_ms']);
  const verify = isRec(o['verify']) ? { passed: o['verify']['passed'] === true } : null;
  // Older runs wrote success for any call that returned: a failed verify was never one.
  const success = recorded && verify?.passed !== false;
  return {
    kind: 'iteration',
    loop: num(o['loop']) ?? 0,
    duration: num(o['duration']) ?? (durationMs !== undefined ? durationMs / 1000 : 0),
    success,
    calls: num(o['calls']) ?? 0,
    outcome: outcome ?? (success ? 'success' : 'failed'),
    result: typeof o['result'] === 'string' && o['result'] !== '' ? o['result'] : success ? 'success' : verify?.passed === false ? 'verify failed' : 'failed',
    inputTokens: num(o['input_tokens']) ?? 0,
    outputTokens: num(o['output_tokens']) ?? 0,
    cacheReadTokens: num(o['cache_read_input_tokens']) ?? 0,
    cacheCreationTokens: num(o['cache_creation_input_tokens']) ?? 0,
    costUsd: num(o['cost_usd']) ?? 0,
    costEstimated: o['cost_estimated'] === true,
    costUnknown: o['cost_unknown'] === true,
    ...(typeof o['backend'] === 'string' && o['backend'] !== '' ? { backend: o['backend'] } : {}),
    verify,
  };
}

function toRun(o: Rec): RunMetric | undefined {
  if (typeof o['exit_reason'] !== 'string') return undefined;
  return {
    kind: 'run',
    exitReason: o['exit_reason'],
    exitCode: num(o['exit_code']) ?? null,
    loops: num(o['loops']) ?? 0,
    duration: num(o['duration']) ?? 0,
    costUsd: num(o['cost_usd']) ?? 0,
  };
}

function toReview(o: Rec): ReviewMetric | undefined {
  if (typeof o['verdict'] !== 'string') return undefined;
  return {
    kind: 'review',
    verdict: o['verdict'],
    costUsd: num(o['cost_usd']) ?? 0,
    costEstimated: o['cost_estimated'] === true,
    inputTokens: num(o['input_tokens']) ?? 0,
    outputTokens: num(o['output_tokens']) ?? 0,
  };
}

/** Parses metrics.jsonl text. */
export function parseMetrics(text: string): ParsedMetrics {
  const entries: MetricsEntry[] = [];
  const skippedLines: number[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skippedLines.push(index + 1);
      return;
    }
    let entry: MetricsEntry | undefined;
    if (isRec(value)) {
      const type = value['type'];
      if (type === undefined || type === 'iteration') entry = toIteration(value);
      else if (type === 'run') entry = toRun(value);
      else if (type === 'review') entry = toReview(value);
    }
    if (entry) entries.push(entry);
    else skippedLines.push(index + 1);
  });
  return { entries, skippedLines };
}

const round = (value: number, places: number): number => {
  const f = 10 ** places;
  return Math.round(value * f) / f;
};

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Totals and averages over parsed metrics. Pure. */
export function computeStats(entries: readonly MetricsEntry[], skippedLines = 0): MetricsStats {
  const iterations = entries.filter((e): e is IterationMetric => e.kind === 'iteration');
  const runs = entries.filter((e): e is RunMetric => e.kind === 'run');
  const reviews = entries.filter((e): e is ReviewMetric => e.kind === 'review');
  const reviewCost = reviews.reduce((acc, r) => acc + r.costUsd, 0);
  const reviewTokens = { input: reviews.reduce((acc, r) => acc + r.inputTokens, 0), output: reviews.reduce((acc, r) => acc + r.outputTokens, 0) };
  const sum = (pick: (i: IterationMetric) => number): number => iterations.reduce((acc, i) => acc + pick(i), 0);
  const n = iterations.length;
  const successful = iterations.filter((i) => i.success).length;
  const totalDuration = sum((i) => i.duration);
  const tokens = {
    input: sum((i) => i.inputTokens) + reviewTokens.input,
    output: sum((i) => i.outputTokens) + reviewTokens.output,
    cache_read: sum((i) => i.cacheReadTokens),
    cache_creation: sum((i) => i.cacheCreationTokens),
    total: 0,
  };
  tokens.total = tokens.input + tokens.output + tokens.cache_read + tokens.cache_creation;
  const iterationCost = sum((i) => i.costUsd);
  const cost = iterationCost + reviewCost;
  const verified = iterations.filter((i) => i.verify !== null);
  const verifyPassed = verified.filter((i) => i.verify?.passed === true).length;
  const outcomes: Record<string, number> = {};
  for (const i of iterations) bump(outcomes, i.outcome);
  const results: Record<string, number> = {};
  for (const i of iterations) bump(results, i.result);
  const exitReasons: Record<string, number> = {};
  for (const r of runs) bump(exitReasons, r.exitReason);
  const backends: MetricsStats['backends'] = {};
  for (const i of iterations) {
    if (i.backend === undefined) continue;
    const b = (backends[i.backend] ??= { iterations: 0, cost_usd: 0, estimated: false, unknown_iterations: 0, tokens: 0 });
    if (i.costUnknown) b.unknown_iterations += 1;
    b.iterations += 1;
    b.cost_usd = round(b.cost_usd + i.costUsd, 6);
    b.estimated ||= i.costEstimated;
    b.tokens += i.inputTokens + i.outputTokens;
  }
  return {
    total_loops: n,
    successful,
    avg_duration: n > 0 ? round(totalDuration / n, 2) : 0,
    total_calls: sum((i) => i.calls),
    iterations: n,
    failed: n - successful,
    success_rate: n > 0 ? round(successful / n, 4) : 0,
    total_duration: round(totalDuration, 2),
    tokens,
    cost_usd: {
      total: round(cost, 6),
      per_iteration: n > 0 ? round(iterationCost / n, 6) : 0,
      estimated: iterations.some((i) => i.costEstimated) || reviews.some((r) => r.costEstimated),
      unknown_iterations: iterations.filter((i) => i.costUnknown).length,
    },
    backends,
    verify: {
      runs: verified.length,
      passed: verifyPassed,
      failed: verified.length - verifyPassed,
      pass_rate: verified.length > 0 ? round(verifyPassed / verified.length, 4) : 0,
    },
    outcomes,
    results,
    exit_reasons: exitReasons,
    runs: runs.length,
    skipped_lines: skippedLines,
    reviews: {
      total: reviews.length,
      approved: reviews.filter((r) => r.verdict === 'APPROVED').length,
      changes_requested: reviews.filter((r) => r.verdict !== 'APPROVED').length,
      cost_usd: round(reviewCost, 6),
      tokens: reviewTokens.input + reviewTokens.output,
    },
  };
}

const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)}%`;

function describeCounts(counts: Record<string, number>): string {
  const items = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return items.length === 0 ? 'none' : items.map(([k, v]) => `${k} ${v}`).join(' · ');
}

/** One row naming the agents that ran, with their share, when the history records them. */
function agentRows(stats: MetricsStats): [string, string][] {
  const entries = Object.entries(stats.backends).sort((a, b) => b[1].iterations - a[1].iterations || a[0].localeCompare(b[0]));
  if (entries.length === 0) return [];
  const parts = entries.map(
    ([name, b]) => `${name} ${b.iterations} iteration${b.iterations === 1 ? '' : 's'}, ${formatCost(b.cost_usd, b.estimated, b.unknown_iterations)}`,
  );
  return [['Agents', parts.join(' · ')]];
}

/**
 * How the calls ended, in words that cannot be read as the iteration's
 * result: a call that returned is "returned", even when its verify failed.
 */
function callEndings(outcomes: Record<string, number>): Record<string, number> {
  const ended: Record<string, number> = {};
  for (const [outcome, count] of Object.entries(outcomes)) ended[outcome === 'success' ? 'returned' : outcome] = count;
  return ended;
}

/** The run's cost, and per iteration when every iteration's cost is known. */
function costRow(c: MetricsStats['cost_usd']): string {
  const total = `${formatCost(c.total, c.estimated, c.unknown_iterations)} total`;
  return c.unknown_iterations > 0 ? total : `${total} · ${formatUsd(c.per_iteration)} per iteration`;
}

/** The reviewer's calls, when the history has any (--review). */
function reviewRows(stats: MetricsStats): [string, string][] {
  const r = stats.reviews;
  if (r.total === 0) return [];
  return [
    ['Reviews', `${r.total} (${r.approved} approved · ${r.changes_requested} changes requested) · ${formatUsd(r.cost_usd)} · ${formatCount(r.tokens)} tokens`],
  ];
}

/** The text report: one row per measure. */
export function formatStatsText(stats: MetricsStats, source: string): string {
  const rows: [string, string][] = [
    ['Iterations', `${stats.iterations} (${stats.successful} successful · ${stats.failed} failed · ${percent(stats.success_rate)})`],
    ['Duration', `avg ${stats.avg_duration.toFixed(1)}s · total ${formatDuration(stats.total_duration)}`],
    ['Agent calls', `${stats.total_calls}${stats.iterations > 0 ? ` (${describeCounts(callEndings(stats.outcomes))})` : ''}`],
    [
      'Tokens',
      `in ${formatCount(stats.tokens.input)} · out ${formatCount(stats.tokens.output)} · cache read ${formatCount(stats.tokens.cache_read)} · cache write ${formatCount(stats.tokens.cache_creation)}`,
    ],
    ['Cost', costRow(stats.cost_usd)],
    ...agentRows(stats),
    ['Verify', stats.verify.runs === 0 ? 'no verify runs' : `${stats.verify.runs} runs · ${stats.verify.passed} passed (${percent(stats.verify.pass_rate)})`],
    ['Results', describeCounts(stats.results)],
    ...reviewRows(stats),
    ['Runs', `${stats.runs} · exit reasons: ${describeCounts(stats.exit_reasons)}`],
  ];
  return [`Ralph metrics · ${source}`, '', ...rows.map(([k, v]) => `  ${k.padEnd(14)}${v}`), ''].join('\n');
}
