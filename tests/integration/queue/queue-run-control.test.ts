// ralph queue run's control of its loops through the built CLI: loops really run at once, one
// --max-cost stops them all, Ctrl+C and kill -9 keep every worktree and branch, and a later run resumes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from '../../helpers/git-repo.js';
import { isRunning, killTracked, survivors, track } from '../../helpers/processes.js';
import { waitFor } from '../../helpers/wait-for.js';
import { addTasks, branches, mockFlags, queueCli, queueItems, queueProject, worktreeList, writeItemScript } from './queue-run-helpers.js';

const THREE = ['alpha', 'beta', 'gamma'];
const verified = (name: string): string => `>>${name} :: verify:"test -f ${name}.txt"`;

afterEach(() => killTracked());

/** The PID of the loop running in an item's worktree (its lock holder, kept in the worktree's git dir). */
function loopPid(worktree: string): number | undefined {
  try {
    const gitDir = git(worktree, 'rev-parse', '--absolute-git-dir').trim();
    const holder = JSON.parse(readFileSync(join(gitDir, 'ralph', 'loop.pid'), 'utf8')) as { pid?: number };
    return typeof holder.pid === 'number' ? holder.pid : undefined;
  } catch {
    return undefined;
  }
}

async function runningLoops(project: string, count: number): Promise<number[]> {
  const pids: number[] = [];
  await waitFor(() => {
    const items = queueItems(project).filter((item) => item.state === 'running');
    if (items.length < count) return false;
    pids.length = 0;
    for (const item of items) {
      const pid = loopPid(join(project, item.worktree ?? ''));
      if (pid === undefined) return false;
      pids.push(pid);
    }
    return true;
  }, `${count} running loops`);
  return pids.map(track);
}

describe('ralph queue run: loops at once', () => {
  it('with --parallel 3, three items run in three loops at the same time, and all complete', async () => {
    // Each agent call takes 20 s: one after another, never more than one loop would be running at a
    // time. Seeing three at once is the proof, whatever the machine's speed (no timing compared).
    const items = THREE.map((name) => ({ trigger: name, files: { [`${name}.txt`]: 'done\n' }, delayMs: 20_000 }));
    const project = queueProject();
    await addTasks(project, THREE.map(verified));
    const run = queueCli(['run', '--parallel', '3', ...mockFlags(writeItemScript(items))], project);
    track(run.pid ?? 0);
    expect(await runningLoops(project, 3)).toHaveLength(3);
    const ended = await run;
    expect(ended.exitCode, String(ended.stderr)).toBe(0);
    expect(queueItems(project).map((item) => item.state)).toEqual(['completed', 'completed', 'completed']);
  });

  it('one --max-cost for all loops: once their costs add up to it, every loop is stopped and its item waits for the next run', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    // Each call costs $0.40 and the agent never finishes: alone, each loop would run to --max-loops.
    const script = writeItemScript(
      THREE.map((name) => ({ trigger: name, files: { [`${name}.txt`]: 'more\n' }, delayMs: 500, costUsd: 0.4, done: false })),
      8,
    );
    await addTasks(project, THREE);
    const run = await queueCli(['run', '--parallel', '3', '--max-cost', '1', ...mockFlags(script, 8)], project);
    expect(run.exitCode, String(run.stderr)).toBe(7);
    expect(String(run.stderr)).toContain('the shared --max-cost of $1.00 is spent; stopping every loop');
    const items = queueItems(project);
    expect(items.map((item) => item.state)).toEqual(['pending', 'pending', 'pending']);
    expect(items.every((item) => item.reason === "stopped: the run's shared --max-cost was spent")).toBe(true);
    const spent = items.map((item) => {
      const status = JSON.parse(readFileSync(join(project, item.worktree ?? '', '.ralph', 'status.json'), 'utf8')) as { totals: { cost_usd: number } };
      return status.totals.cost_usd;
    });
    const total = spent.reduce((sum, usd) => sum + usd, 0);
    // Reached, and stopped soon after: far from the $9.60 three unchecked loops would spend.
    expect(total).toBeGreaterThanOrEqual(1);
    expect(total).toBeLessThan(3);
    // Each loop was also told what was left of the budget as its own cap.
    expect(readFileSync(join(project, items[0]?.worktree ?? '', '.ralph', 'status.json'), 'utf8')).toMatch(/"max_cost_usd": 1\b/);
  });
});

describe('ralph queue run: interrupted and resumed', () => {
  it('Ctrl+C stops every loop (exit 130), keeps worktrees and branches, and the next run resumes there', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    await addTasks(project, THREE.map(verified));
    const slow = writeItemScript(THREE.map((name) => ({ trigger: name, files: { [`${name}.txt`]: 'slow\n' }, delayMs: 60_000 })));
    const first = queueCli(['run', '--parallel', '3', ...mockFlags(slow)], project);
    track(first.pid ?? 0);
    const loops = await runningLoops(project, 3);
    first.kill('SIGINT');
    const ended = await first;
    expect(ended.exitCode).toBe(130);
    expect(await survivors(loops)).toEqual([]);
    const items = queueItems(project);
    expect(items.map((item) => [item.state, item.reason])).toEqual(THREE.map(() => ['pending', 'interrupted by Ctrl+C']));
    expect(branches(project)).toEqual(['main', 'ralph/t1', 'ralph/t2', 'ralph/t3']);
    expect(worktreeList(project)).toHaveLength(4);

    const fast = writeItemScript(THREE.map((name) => ({ trigger: name, files: { [`${name}.txt`]: 'done\n' } })));
    const second = await queueCli(['run', '--parallel', '3', ...mockFlags(fast)], project);
    expect(second.exitCode, String(second.stderr)).toBe(0);
    expect(String(second.stderr)).toContain('(its earlier worktree, with its work)');
    expect(queueItems(project).map((item) => item.state)).toEqual(['completed', 'completed', 'completed']);
    expect(worktreeList(project)).toEqual([project]);
  });

  it('kill -9 of the run: its loops end with it, and the next run recovers their items and completes them', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    await addTasks(project, THREE.map(verified));
    const slow = writeItemScript(THREE.map((name) => ({ trigger: name, files: { [`${name}.txt`]: 'slow\n' }, delayMs: 60_000 })));
    const first = queueCli(['run', '--parallel', '2', ...mockFlags(slow)], project);
    const runPid = track(first.pid ?? 0);
    const loops = await runningLoops(project, 2);
    process.kill(runPid, 'SIGKILL');
    await first;
    expect(isRunning(runPid)).toBe(false);
    // The run's watchdog ends the loops it started (and each loop's own watchdog its agent).
    expect(await survivors(loops)).toEqual([]);
    const status = await queueCli(['status'], project);
    expect(String(status.stdout)).toContain('interrupted: its run is gone');

    const fast = writeItemScript(THREE.map((name) => ({ trigger: name, files: { [`${name}.txt`]: 'done\n' } })));
    const second = await queueCli(['run', '--parallel', '3', ...mockFlags(fast)], project);
    expect(second.exitCode, String(second.stderr)).toBe(0);
    expect(String(second.stderr)).toMatch(/t\d, t\d went back to pending: the run that started them is gone/);
    expect(queueItems(project).map((item) => item.state)).toEqual(['completed', 'completed', 'completed']);
  });
});
