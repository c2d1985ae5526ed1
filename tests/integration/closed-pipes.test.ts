// Ralph's stdout/stderr readers go away before it writes anything: real pipes, real processes.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { ROOT, cleanEnv, fakeClaude, readJson, resultJson, statusBlock } from '../helpers/run-cli.js';

interface Outcome {
  code: number | null;
  /** What the process wrote to the streams we kept open. */
  kept: string;
}

/**
 * Spawns bin/ralph.js and closes the read end of the chosen pipes at once,
 * before the child has even started, so every write it makes to them fails.
 */
function runWithClosedReaders(args: readonly string[], cwd: string, env: Record<string, string>, close: ReadonlyArray<'stdout' | 'stderr'>): Promise<Outcome> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'ralph.js'), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let kept = '';
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = child[name];
    if (close.includes(name)) stream.destroy();
    else stream.on('data', (chunk: Buffer) => (kept += chunk.toString()));
  }
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, kept })));
}

const inProgress = resultJson(`Worked.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`);

describe('a closed output pipe', () => {
  it.each([['--help'], ['--config'], ['--checkpoints'], ['--version']])('ralph %s | (reader gone) exits 0 without a stack trace', async (flag) => {
    const dir = ralphProject({ git: true });
    const r = await runWithClosedReaders([flag], dir, cleanEnv(), ['stdout']);
    expect(r.kept).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
    expect(r.code).toBe(0);
  });

  it('never stops a loop: it runs to its end with both readers gone, writes its logs and a final status', async () => {
    const dir = ralphProject();
    const fake = fakeClaude([], { default: { stdout: inProgress, shell: 'date +%N >> work.txt' } });
    const r = await runWithClosedReaders(['--max-loops', '3', '--pause', '0', '--verbose'], dir, fake.env, ['stdout', 'stderr']);
    expect(r.code).toBe(7);
    expect(fake.calls()).toHaveLength(3);
    expect(readJson(join(dir, '.ralph', 'status.json'))).toMatchObject({ status: 'stopped', exit_reason: 'max_loops', loop_count: 3 });
    const log = readFileSync(join(dir, '.ralph', 'logs', 'ralph.log'), 'utf8');
    expect(log).toContain('Loop #3');
  });
});
