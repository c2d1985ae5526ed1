// Spawns the built CLI: run `npx tsc -p tsconfig.build.json` first (`npm test` does).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

const BIN = resolve('bin/ralph-stats.js');

function run(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 100_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function projectWithMetrics(): string {
  const dir = tempDir('ralph-stats-');
  mkdirSync(join(dir, '.ralph', 'logs'), { recursive: true });
  copyFileSync(resolve('tests/fixtures/metrics/mixed.jsonl'), join(dir, '.ralph', 'logs', 'metrics.jsonl'));
  return dir;
}

describe('ralph-stats (built CLI)', () => {
  it('prints the summary table and warns about skipped lines on stderr', () => {
    const r = run([], projectWithMetrics());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Iterations +5 \(2 successful · 3 failed · 40\.0%\)/);
    expect(r.stdout).toMatch(/Runs +2 · exit reasons: plan_complete 1 · usage_limit 1/);
    expect(r.stderr).toContain('Skipped 3 line(s) that are not metrics records (line 3, 7, 10)');
  });

  it('--json prints one document with the original keys and ours', () => {
    const r = run(['--json'], projectWithMetrics());
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({
      total_loops: 5,
      successful: 2,
      avg_duration: 20,
      total_calls: 4,
      success_rate: 0.4,
      skipped_lines: 3,
      exit_reasons: { usage_limit: 1, plan_complete: 1 },
    });
  });

  it('--project reads another directory', () => {
    const dir = projectWithMetrics();
    const r = run(['--json', '--project', dir], tempDir('ralph-elsewhere-'));
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { iterations: number }).iterations).toBe(5);
  });

  it('without a metrics file: exit 1, the JSON error on stdout in --json mode', () => {
    const dir = tempDir('ralph-stats-');
    const json = run(['--json'], dir);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        code: 1,
        kind: 'runtime',
        message: 'No metrics file found. Run ralph first to generate metrics.',
        hint: `(looked for ${join(dir, '.ralph', 'logs', 'metrics.jsonl')})`,
      },
    });
    expect(json.stderr).toContain('No metrics file found.');
    const text = run([], dir);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain('No metrics file found. Run ralph first to generate metrics.');
  });

  it('usage errors exit 2; --help and --version exit 0', () => {
    const bad = run(['--nope'], tempDir('ralph-stats-'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown option '--nope'");
    expect(run(['--help'], tempDir('ralph-stats-')).stdout).toContain('--json');
    const version = run(['--version'], tempDir('ralph-stats-'));
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
