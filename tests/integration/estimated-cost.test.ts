// Spawns the built CLI (npm test builds first): a loop whose agent reports no cost of its own,
// so every figure Ralph shows is an estimate from tokens and list prices and must say so.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, readJsonLines, runCli, statusBlock } from '../helpers/run-cli.js';

const step = (n: number, estimated: boolean) => ({
  output: `Step ${n}.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`,
  cost_usd: 0.125,
  cost_estimated: estimated,
  input_tokens: 1000,
  output_tokens: 100,
});

describe('costs that are estimates', () => {
  it('are marked in status.json, metrics.jsonl, the exit line, --status, the monitor and ralph-stats', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [step(1, false), step(2, true)]);
    const r = await ralph(['--backend', 'mock', '--pause', '0', '--max-loops', '2'], dir, cleanEnv());
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain('cost: $0.2500 (estimated); tokens: 2000 in / 200 out');

    const status = readJson<{ backend: string; totals: Record<string, unknown>; last_iteration: Record<string, unknown> }>(join(dir, '.ralph', 'status.json'));
    expect(status.backend).toBe('mock');
    expect(status.totals).toMatchObject({ cost_usd: 0.25, cost_estimated: true });
    expect(status.last_iteration).toMatchObject({ cost_usd: 0.125, cost_estimated: true });

    const metrics = readJsonLines(join(dir, '.ralph', 'logs', 'metrics.jsonl'));
    expect(metrics.map((m) => [m['type'], m['backend'], m['cost_estimated']])).toEqual([
      ['iteration', 'mock', false],
      ['iteration', 'mock', true],
      ['run', 'mock', true],
    ]);

    const text = await runCli('ralph', ['--status'], dir, cleanEnv());
    expect(text.stdout).toMatch(/Agent +mock\n/);
    expect(text.stdout).toMatch(/Cost +\$0\.2500 \(estimated\) this run/);
    const monitor = await runCli('ralph-monitor', ['--once'], dir, cleanEnv());
    expect(monitor.stdout).toMatch(/Agent: +mock/);
    expect(monitor.stdout).toContain('$0.2500 (estimated)');
    const stats = await runCli('ralph-stats', [], dir, cleanEnv());
    expect(stats.stdout).toMatch(/Cost +\$0\.2500 \(estimated\) total/);
    expect(stats.stdout).toMatch(/Agents +mock 2 iterations, \$0\.2500 \(estimated\)/);
  });

  it('a run whose agent reports its costs says nothing of estimates', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [step(1, false)]);
    const r = await ralph(['--backend', 'mock', '--pause', '0', '--max-loops', '1'], dir, cleanEnv());
    expect(r.stderr).toContain('cost: $0.1250; tokens');
    expect((await runCli('ralph', ['--status'], dir, cleanEnv())).stdout).not.toContain('estimated');
  });
});
