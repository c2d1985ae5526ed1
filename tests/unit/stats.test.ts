import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeStats, formatStatsText, parseMetrics } from '../../src/features/observe/stats.js';

const MIXED = readFileSync('tests/fixtures/metrics/mixed.jsonl', 'utf8');

describe('parseMetrics', () => {
  it('reads old-shape, iteration and run lines and reports bad lines by number', () => {
    const parsed = parseMetrics(MIXED);
    expect(parsed.entries.map((e) => e.kind)).toEqual(['iteration', 'iteration', 'iteration', 'iteration', 'iteration', 'run', 'run']);
    // line 3 is not JSON, line 7 not an object, line 10 an iteration without success/outcome
    expect(parsed.skippedLines).toEqual([3, 7, 10]);
  });

  it('takes the outcome of old-shape lines from success', () => {
    const [first, second] = parseMetrics(MIXED).entries;
    expect(first).toMatchObject({ kind: 'iteration', outcome: 'success', duration: 30, calls: 1, costUsd: 0 });
    expect(second).toMatchObject({ kind: 'iteration', outcome: 'failed', success: false });
  });

  it('uses duration_ms when duration is absent, and outcome when success is absent', () => {
    const { entries } = parseMetrics('{"type":"iteration","duration_ms":2500,"outcome":"timeout"}\n');
    expect(entries[0]).toMatchObject({ duration: 2.5, success: false, outcome: 'timeout' });
  });

  it('skips unknown record types and runs without an exit reason', () => {
    expect(parseMetrics('{"type":"mystery"}\n{"type":"run"}\n').skippedLines).toEqual([1, 2]);
  });
});

describe('computeStats', () => {
  it('totals and averages over the fixture', () => {
    const parsed = parseMetrics(MIXED);
    const stats = computeStats(parsed.entries, parsed.skippedLines.length);
    expect(stats).toEqual({
      total_loops: 5,
      // The second new-shape iteration returned but its verify command failed: no success.
      successful: 2,
      avg_duration: 20,
      total_calls: 4,
      iterations: 5,
      failed: 3,
      success_rate: 0.4,
      total_duration: 100,
      tokens: { input: 3000, output: 300, cache_read: 5000, cache_creation: 300, total: 8600 },
      cost_usd: { total: 0.2, per_iteration: 0.04, estimated: false, unknown_iterations: 0 },
      backends: {},
      verify: { runs: 2, passed: 1, failed: 1, pass_rate: 0.5 },
      outcomes: { success: 3, failed: 1, usage_limit: 1 },
      // What the iterations amounted to agrees with `successful`: the verify failure is no success.
      results: { success: 2, 'verify failed': 1, failed: 2 },
      exit_reasons: { usage_limit: 1, plan_complete: 1 },
      runs: 2,
      skipped_lines: 3,
      reviews: { total: 0, approved: 0, changes_requested: 0, cost_usd: 0, tokens: 0 },
    });
  });

  it('is all zeros for no entries (no division by zero)', () => {
    const stats = computeStats([]);
    expect(stats).toMatchObject({
      total_loops: 0,
      avg_duration: 0,
      success_rate: 0,
      cost_usd: { total: 0, per_iteration: 0 },
      verify: { pass_rate: 0 },
      runs: 0,
    });
    expect(Object.values(stats).every((v) => !Number.isNaN(v))).toBe(true);
  });

  it("matches the original's summary for old-shape lines only", () => {
    const old = parseMetrics(
      [
        '{"timestamp":"t","loop":1,"duration":3,"success":true,"calls":1}',
        '{"timestamp":"t","loop":2,"duration":4,"success":true,"calls":1}',
        '{"timestamp":"t","loop":3,"duration":5,"success":false,"calls":1}',
      ].join('\n'),
    );
    const stats = computeStats(old.entries);
    expect({ total_loops: stats.total_loops, successful: stats.successful, avg_duration: stats.avg_duration, total_calls: stats.total_calls }).toEqual({
      total_loops: 3,
      successful: 2,
      avg_duration: 4,
      total_calls: 3,
    });
  });
});

describe('formatStatsText', () => {
  it('prints one row per measure', () => {
    const parsed = parseMetrics(MIXED);
    const text = formatStatsText(computeStats(parsed.entries, 3), '/p/.ralph/logs/metrics.jsonl');
    expect(text).toContain('Ralph metrics · /p/.ralph/logs/metrics.jsonl');
    expect(text).toMatch(/Iterations +5 \(2 successful · 3 failed · 40\.0%\)/);
    expect(text).toMatch(/Duration +avg 20\.0s · total 1m 40s/);
    expect(text).toMatch(/Tokens +in 3,000 · out 300 · cache read 5,000 · cache write 300/);
    expect(text).toMatch(/Cost +\$0\.2000 total · \$0\.0400 per iteration/);
    expect(text).toMatch(/Verify +2 runs · 1 passed \(50\.0%\)/);
    expect(text).toMatch(/Agent calls +4 \(returned 3 · failed 1 · usage_limit 1\)/);
    expect(text).toMatch(/Results +failed 2 · success 2 · verify failed 1/);
    // One screen never counts more successes than the iterations that succeeded.
    for (const match of text.matchAll(/\bsuccess (\d+)/g)) expect(Number(match[1])).toBeLessThanOrEqual(2);
    expect(text).toMatch(/Runs +2 · exit reasons: plan_complete 1 · usage_limit 1/);
    expect(text).not.toContain('Agents');
    expect(text).not.toContain('estimated');
  });

  it('names each agent of a mixed history, and marks estimated costs', () => {
    const line = (loop: number, backend: string, cost: number, estimated: boolean): string =>
      JSON.stringify({
        type: 'iteration',
        loop,
        success: true,
        calls: 1,
        outcome: 'success',
        backend,
        cost_usd: cost,
        cost_estimated: estimated,
        input_tokens: 100,
        output_tokens: 10,
      });
    const parsed = parseMetrics([line(1, 'claude', 0.5, false), line(2, 'codex', 0.25, true), line(3, 'codex', 0.25, true)].join('\n'));
    const stats = computeStats(parsed.entries);
    expect(stats.cost_usd).toEqual({ total: 1, per_iteration: 0.333333, estimated: true, unknown_iterations: 0 });
    expect(stats.backends).toEqual({
      claude: { iterations: 1, cost_usd: 0.5, estimated: false, unknown_iterations: 0, tokens: 110 },
      codex: { iterations: 2, cost_usd: 0.5, estimated: true, unknown_iterations: 0, tokens: 220 },
    });
    const text = formatStatsText(stats, 'm');
    expect(text).toMatch(/Cost +\$1\.00 \(estimated\) total/);
    expect(text).toMatch(/Agents +codex 2 iterations, \$0\.5000 \(estimated\) · claude 1 iteration, \$0\.5000\n/);
  });

  it('an iteration whose cost is unknown (tokens, no price) is never shown as $0.0000', () => {
    const line = (loop: number, fields: Record<string, unknown>): string =>
      JSON.stringify({
        type: 'iteration',
        loop,
        success: true,
        calls: 1,
        outcome: 'success',
        backend: 'gemini',
        input_tokens: 1200,
        output_tokens: 80,
        ...fields,
      });
    const onlyUnknown = computeStats(parseMetrics(line(1, { cost_usd: 0, cost_unknown: true })).entries);
    expect(onlyUnknown.cost_usd).toMatchObject({ total: 0, unknown_iterations: 1 });
    const text = formatStatsText(onlyUnknown, 'm');
    expect(text).toMatch(/Cost +unknown for 1 call \(no price known for the model\) total\n/);
    expect(text).toMatch(/Agents +gemini 1 iteration, unknown for 1 call/);
    expect(text).not.toContain('$0.0000');
    const mixed = computeStats(
      parseMetrics([line(1, { cost_usd: 0.01, cost_estimated: true }), line(2, { cost_usd: 0, cost_unknown: true })].join('\n')).entries,
    );
    expect(formatStatsText(mixed, 'm')).toMatch(/Cost +\$0\.0100 \(estimated\) \+ unknown for 1 call \(no price known for the model\) total\n/);
  });
});

describe('reviews (--review) in the metrics', () => {
  const lines = [
    JSON.stringify({ type: 'iteration', loop: 1, success: true, outcome: 'success', calls: 1, cost_usd: 0.1, input_tokens: 100, output_tokens: 10 }),
    JSON.stringify({
      type: 'review',
      loop: 1,
      review: 1,
      verdict: 'CHANGES_REQUESTED',
      decision: 'continue',
      cost_usd: 0.02,
      input_tokens: 50,
      output_tokens: 5,
    }),
    JSON.stringify({ type: 'iteration', loop: 2, success: true, outcome: 'success', calls: 1, cost_usd: 0.1, input_tokens: 100, output_tokens: 10 }),
    JSON.stringify({ type: 'review', loop: 2, review: 2, verdict: 'APPROVED', decision: 'end', cost_usd: 0.03, input_tokens: 60, output_tokens: 6 }),
    JSON.stringify({ type: 'review', loop: 2 }),
  ].join('\n');

  it('are counted apart from the iterations, their cost and tokens in the totals too', () => {
    const parsed = parseMetrics(lines);
    expect(parsed.skippedLines).toEqual([5]);
    const stats = computeStats(parsed.entries);
    expect(stats.iterations).toBe(2);
    expect(stats.reviews).toEqual({ total: 2, approved: 1, changes_requested: 1, cost_usd: 0.05, tokens: 121 });
    expect(stats.cost_usd.total).toBeCloseTo(0.25);
    expect(stats.cost_usd.per_iteration).toBeCloseTo(0.1);
    expect(stats.tokens.input).toBe(310);
    expect(formatStatsText(stats, 'm.jsonl')).toContain('Reviews       2 (1 approved · 1 changes requested) · $0.0500 · 121 tokens');
  });

  it('a history without reviews shows no review row', () => {
    expect(formatStatsText(computeStats(parseMetrics(lines.split('\n')[0] ?? '').entries), 'm.jsonl')).not.toContain('Reviews');
  });
});
