// A queue item resumes like a loop of its own: the queue and its item's loop are killed with
// SIGKILL while the agent works (a power loss), and the next `ralph queue run` runs the item again
// in its worktree, where the loop goes on with its run, loop number and what it had spent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readReceipts } from '../../../src/state/receipt-log.js';
import { isRunning, killTracked, track } from '../../helpers/processes.js';
import { readJson } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { waitFor } from '../../helpers/wait-for.js';
import { addTasks, doneOutput, queueCli, queueItems, queueProject } from '../queue/queue-run-helpers.js';

afterEach(() => killTracked());

/** One reply per loop of the item: loop 2 works long enough to be killed, loop 3 finishes. */
function script(): string {
  const reply = (n: number, done: boolean, delayMs: number): Record<string, unknown> => ({
    output: doneOutput(done),
    trigger_pattern: `Loop #${n}\\.`,
    files: { [done ? 'alpha.txt' : `alpha-${n}.txt`]: `${n}\n` },
    delay_ms: delayMs,
    cost_usd: 0.1 * n,
    input_tokens: 100 * n,
  });
  const file = join(tempDir('queue-resume-script-'), 'mock.json');
  writeFileSync(file, JSON.stringify({ responses: [reply(1, false, 0), reply(2, false, 60_000), reply(3, true, 0)] }));
  return file;
}

describe('a queue item after a crash', { timeout: 180_000 }, () => {
  it('resumes in its worktree with its counters', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    await addTasks(project, ['>>alpha :: verify:"test -f alpha.txt" loop:true']);
    const flags = ['--backend', 'mock', '--mock-script', script(), '--pause', '0', '--max-loops', '5'];
    const worktree = join(project, '.ralph', 'worktrees', 't1');
    const status = (): Record<string, unknown> | undefined => {
      try {
        return readJson(join(worktree, '.ralph', 'status.json'));
      } catch {
        return undefined;
      }
    };

    const first = queueCli(['run', ...flags], project);
    const queuePid = track(first.pid as number);
    await waitFor(() => status()?.['loop_count'] === 2 && status()?.['last_action'] === 'executing', 'the item at work in loop 2', 60_000);
    const loopPid = track(Number(status()?.['pid']));
    process.kill(queuePid, 'SIGKILL');
    process.kill(loopPid, 'SIGKILL');
    await first.catch(() => undefined);
    await waitFor(() => !isRunning(loopPid) && !isRunning(queuePid), 'both gone');
    const before = readReceipts(join(worktree, '.ralph', 'logs', 'receipts.jsonl')).receipts;
    expect(before.map((r) => r.loop)).toEqual([1]);

    const again = await queueCli(['run', ...flags], project);
    const said = String(again.stderr);
    expect(again.exitCode, said).toBe(0);
    // The item's loop says it resumes, goes on with loop 3, and counts loop 1's cost and tokens.
    expect(said).toContain(`[t1] `);
    expect(said).toContain(`Resuming run ${before[0]?.run_id} after a crash at loop 2: $0.1000 spent, 100 tokens over 1 receipt`);
    expect(said).toContain('=== Starting Loop #3 ===');
    expect(said).not.toContain('=== Starting Loop #1 ===');
    expect(said).toMatch(/t1 completed \(3 iterations, \$0\.4000\)/);
    const [item] = queueItems(project);
    expect(item?.state).toBe('completed');
    expect(item?.result).toMatchObject({ iterations: 3 });
    expect(item?.result?.cost).toBeCloseTo(0.4, 9);
  });
});
