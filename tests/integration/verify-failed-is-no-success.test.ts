// Spawns the built CLI: run `npm run build` first (`npm test` does).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, runCli, statusBlock } from '../helpers/run-cli.js';

describe('an iteration whose verify command failed', () => {
  it('is called a success nowhere: status.json, ralph-monitor and ralph-stats agree', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [
      { output: `Wrote a.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`, files: { 'a.txt': 'a' } },
      { output: `Wrote b.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`, files: { 'b.txt': 'b' } },
    ]);
    // The first iteration's work fails the check (no b.txt yet); the second passes it.
    const run = await ralph(
      ['--backend', 'mock', '--pause', '0', '--max-loops', '2', '--verify', 'test -f b.txt', '--on-verify-exhausted', 'retry'],
      dir,
      cleanEnv(),
    );
    expect(run.exitCode).toBe(7);

    const status = readJson<{ last_iteration: Record<string, unknown> }>(join(dir, '.ralph', 'status.json'));
    expect(status.last_iteration).toMatchObject({ loop: 2, outcome: 'success', success: true, result: 'success, verify passed' });

    const stats = await runCli('ralph-stats', [], dir, cleanEnv());
    const text = String(stats.stdout);
    expect(text).toMatch(/Iterations +2 \(1 successful · 1 failed/);
    expect(text).toMatch(/Results +.*verify failed 1/);
    expect(text).toMatch(/Results +.*success, verify passed 1/);
    expect(text).not.toMatch(/Outcomes/);
    expect(text).toMatch(/Agent calls +2 \(returned 2\)/);
  });

  it('shows as its result in the monitor, not as the call that returned', async () => {
    const dir = ralphProject();
    writeMockScript(dir, [{ output: `Wrote a.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`, files: { 'a.txt': 'a' } }]);
    await ralph(['--backend', 'mock', '--pause', '0', '--max-loops', '1', '--verify', 'false', '--on-verify-exhausted', 'retry'], dir, cleanEnv());
    const status = readJson<{ last_iteration: Record<string, unknown> }>(join(dir, '.ralph', 'status.json'));
    expect(status.last_iteration).toMatchObject({ loop: 1, outcome: 'success', success: false });
    expect(String(status.last_iteration['result'])).toMatch(/^verify failed/);

    const monitor = await runCli('ralph-monitor', ['--once'], dir, cleanEnv());
    expect(String(monitor.stdout)).toMatch(/Last loop: +#1 verify failed/);
    expect(String(monitor.stdout)).not.toMatch(/Last loop: +#1 success/);
  });
});
