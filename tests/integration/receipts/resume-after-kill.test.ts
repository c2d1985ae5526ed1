// kill -9 at random points of a real loop (while the agent works, or right after a receipt was
// written), then `ralph` again: the run goes on under its id with its loop number, cost and token
// totals restored, says so, never reuses a loop number, and ends with totals equal to the sum of
// its receipts. `--max-cost` counts what was spent before the crash; `--fresh` starts anew.
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Receipt } from '../../../src/core/receipt.js';
import { readReceipts } from '../../../src/state/receipt-log.js';
import { isRunning, killTracked, track } from '../../helpers/processes.js';
import { ralphProject, writeMockScript } from '../../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, readJsonLines, runCli, statusBlock } from '../../helpers/run-cli.js';
import { waitFor } from '../../helpers/wait-for.js';

afterEach(() => killTracked());

const LOOPS = 7;
/** Long enough to be caught working; the kill comes on a condition, never after a fixed time. */
const CALL_MS = 1500;

/** One reply per loop number (the mock picks it by "Loop #N." of the call), each with its own work and price. */
function script(dir: string): void {
  writeMockScript(
    dir,
    Array.from({ length: LOOPS + 2 }, (_, i) => {
      const n = i + 1;
      return {
        trigger_pattern: `Loop #${n}\\.`,
        output: `Step ${n}.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`,
        files: { [`step-${n}.txt`]: `${n}\n` },
        delay_ms: CALL_MS,
        cost_usd: 0.25 + n / 100,
        input_tokens: 1000 + n,
        output_tokens: 10 * n,
        session_id: 'mock-session-1',
      };
    }),
  );
}

/** A small seeded generator: the kill points differ from run to run of the suite, and a failure names its seed. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const receiptsOf = (dir: string): Receipt[] => readReceipts(join(dir, '.ralph', 'logs', 'receipts.jsonl')).receipts;
function status(dir: string): Record<string, unknown> | undefined {
  try {
    return readJson(join(dir, '.ralph', 'status.json'));
  } catch {
    return undefined;
  }
}

type KillPoint = { at: 'agent_running'; loop: number } | { at: 'after_receipt'; count: number };

/** Starts the loop, waits for the point, kills it with SIGKILL; returns what it printed. */
async function runAndKill(dir: string, point: KillPoint): Promise<string> {
  const child = runCli('ralph', ['--backend', 'mock', '--pause', '0', '--max-loops', String(LOOPS)], dir, cleanEnv());
  const pid = track(child.pid as number);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (point.at === 'agent_running') {
    await waitFor(() => {
      const s = status(dir);
      return s?.['pid'] === pid && s['loop_count'] === point.loop && s['last_action'] === 'executing';
    }, `loop ${point.loop} working`);
  } else {
    await waitFor(() => receiptsOf(dir).length >= point.count, `receipt ${point.count}`);
  }
  process.kill(pid, 'SIGKILL');
  await child;
  await waitFor(() => !isRunning(pid), 'the killed loop gone');
  return stderr;
}

function totalsOf(receipts: readonly Receipt[]): { cost: number; input: number; output: number } {
  return receipts.reduce((t, r) => ({ cost: t.cost + (r.cost.usd ?? 0), input: t.input + r.tokens.input, output: t.output + r.tokens.output }), {
    cost: 0,
    input: 0,
    output: 0,
  });
}

describe('resume after kill -9', { timeout: 300_000 }, () => {
  const seed = Number(process.env['RALPH_KILL_SEED'] ?? Date.now() % 100_000);

  it(`goes on with the run, its counters equal to the sum of its receipts (seed ${seed})`, async () => {
    const random = generator(seed);
    const dir = ralphProject();
    script(dir);
    // Two kills at random points, each later than the one before.
    let loop = 1;
    const points: KillPoint[] = [];
    for (let i = 0; i < 2; i += 1) {
      loop += Math.floor(random() * 2);
      points.push(random() < 0.5 ? { at: 'agent_running', loop } : { at: 'after_receipt', count: receiptsOf(dir).length + 1 });
      const previousStart = i === 0 ? '' : 'Resuming run';
      const printed = await runAndKill(dir, points[i] as KillPoint);
      if (previousStart) expect(printed).toContain(previousStart);
      loop = Math.max(loop, Number(status(dir)?.['loop_count'] ?? 0)) + 1;
    }
    const before = receiptsOf(dir);
    const crashedAt = Number(status(dir)?.['loop_count']);
    const spent = totalsOf(before);

    const r = await ralph(['--backend', 'mock', '--pause', '0', '--max-loops', String(LOOPS), '--report', 'report.json'], dir, cleanEnv());
    expect(r.exitCode, `${JSON.stringify(points)}\n${r.stderr}`).toBe(7);
    // The run's id: in its receipts, or (killed twice before one was written) in what the resume says.
    const runId = before[0]?.run_id ?? /Resuming run (\S+) after a crash/.exec(r.stderr)?.[1] ?? 'no id';
    const cost = spent.cost < 1 ? `$${spent.cost.toFixed(4)}` : `$${spent.cost.toFixed(2)}`;
    expect(r.stderr).toContain(
      `Resuming run ${runId} after a crash at loop ${crashedAt}: ${cost} spent, ${(spent.input + spent.output).toLocaleString('en-US')} tokens`,
    );
    expect(r.stderr).toContain(`The next loop is ${crashedAt + 1}; ralph --fresh starts a new run instead.`);

    const receipts = receiptsOf(dir);
    expect(new Set(receipts.map((x) => x.run_id))).toEqual(new Set([runId]));
    const loops = receipts.map((x) => x.loop);
    const trail = `${JSON.stringify(points)} loops ${loops.join(',')}`;
    expect(
      [...loops].sort((a, b) => a - b),
      trail,
    ).toEqual(loops);
    expect(new Set(loops).size, trail).toBe(loops.length);
    expect(Math.max(...loops), trail).toBe(LOOPS);

    const final = readJson<{ loop_count: number; totals: Record<string, number> }>(join(dir, '.ralph', 'status.json'));
    const sum = totalsOf(receipts);
    expect(final.loop_count).toBe(LOOPS);
    expect(final.totals['cost_usd']).toBeCloseTo(sum.cost, 9);
    expect(final.totals['input_tokens']).toBe(sum.input);
    expect(final.totals['output_tokens']).toBe(sum.output);
    expect(final.totals['calls']).toBe(receipts.length);
    // The run report counts the whole run, its part before the crashes included.
    const report = readJson<{ run_id: string; receipts: number; iterations: number; cost_usd: number; tokens: { input: number } }>(join(dir, 'report.json'));
    expect(report).toMatchObject({ run_id: runId, receipts: receipts.length, iterations: LOOPS, tokens: { input: sum.input } });
    expect(report.cost_usd).toBeCloseTo(sum.cost, 9);
    // ralph-stats reads the same receipts: one run, resumed.
    const stats = await runCli('ralph-stats', ['--json'], dir, cleanEnv());
    const fromReceipts = (
      JSON.parse(String(stats.stdout)) as { receipts: { receipts: number; runs: number; resumed_runs: number; cost_usd: { total: number } } }
    ).receipts;
    expect(fromReceipts).toMatchObject({ receipts: receipts.length, runs: 1, resumed_runs: 1 });
    expect(fromReceipts.cost_usd.total).toBeCloseTo(sum.cost, 6);

    // No loop number was used twice: each started once in the recording, each output log its own.
    const starts = readJsonLines(join(dir, '.ralph', 'logs', 'session.jsonl'))
      .filter((e) => e['event'] === 'iteration.start')
      .map((e) => (e['data'] as { iteration: number }).iteration);
    expect(new Set(starts).size).toBe(starts.length);
    const logs = readdirSync(join(dir, '.ralph', 'logs')).filter((f) => /_loop\d+/.test(f));
    const logLoops = logs.map((f) => /_loop(\d+)/.exec(f)?.[1]);
    expect(new Set(logLoops).size).toBe(logLoops.length);
  });

  it('--max-cost counts what the crashed run spent; --fresh starts a new run', async () => {
    const dir = ralphProject();
    script(dir);
    await runAndKill(dir, { at: 'after_receipt', count: 2 });
    const spent = totalsOf(receiptsOf(dir)).cost;
    expect(spent).toBeGreaterThan(0.5);

    // A receipt the kill cut short is skipped with a note and counts for nothing.
    appendFileSync(join(dir, '.ralph', 'logs', 'receipts.jsonl'), '{"version":1,"run_id":"cut-sho');
    const capped = await ralph(['--backend', 'mock', '--pause', '0', '--max-loops', String(LOOPS), '--max-cost', '0.5'], dir, cleanEnv());
    expect(capped.stderr).toContain('receipts.jsonl: line 3: cut short (the loop was stopped while writing it); skipped');
    expect(capped.stderr).toContain(`spent, ${(2000 + 3 + 30).toLocaleString('en-US')} tokens over 2 receipts`);
    expect(capped.exitCode).toBe(7);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ exit_reason: 'max_cost' });
    expect(receiptsOf(dir)).toHaveLength(2);

    // That run ended: the next one is new, and so is one started with --fresh after a crash.
    await runAndKill(dir, { at: 'agent_running', loop: 1 });
    const fresh = await ralph(['--backend', 'mock', '--pause', '0', '--max-loops', '1', '--fresh'], dir, cleanEnv());
    expect(fresh.exitCode, fresh.stderr).toBe(7);
    expect(fresh.stderr).toContain('Starting a new run (--fresh)');
    expect(fresh.stderr).not.toContain('Resuming run');
    const receipts = receiptsOf(dir);
    expect(receipts).toHaveLength(3);
    expect(receipts[2]?.loop).toBe(1);
    expect(receipts[2]?.run_id).not.toBe(receipts[0]?.run_id);
    // RALPH_FRESH=1 says the same as --fresh.
    await runAndKill(dir, { at: 'agent_running', loop: 1 });
    const byEnv = await ralph(['--backend', 'mock', '--pause', '0', '--max-loops', '1'], dir, cleanEnv({ RALPH_FRESH: '1' }));
    expect(byEnv.exitCode, byEnv.stderr).toBe(7);
    expect(byEnv.stderr).toContain('Starting a new run (--fresh)');
    expect(receiptsOf(dir).at(-1)?.loop).toBe(1);
    expect(existsSync(join(dir, '.ralph', 'logs', 'receipts.jsonl'))).toBe(true);
  });
});
