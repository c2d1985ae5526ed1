// Resuming right after an interrupted run: the loop that run started in an item's worktree may still
// be ending, holding the worktree's lock. The new run waits for it, then runs the item — never failing
// it for the lock. Real git worktrees, a real process holding the lock, the built CLI.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForPreviousLoop } from '../../../src/features/queue/previous-loop.js';
import { git } from '../../helpers/git-repo.js';
import { killTracked, track } from '../../helpers/processes.js';
import { waitFor } from '../../helpers/wait-for.js';
import { addTasks, mockFlags, queueCli, queueItems, queueProject, writeItemScript } from './queue-run-helpers.js';

afterEach(() => killTracked());

/** A process standing for a loop that is still saving its state: it holds the worktree's lock until killed. */
function holdLoopLock(worktree: string): ChildProcess {
  const holder = spawn('sleep', ['600'], { stdio: 'ignore' });
  const pid = track(holder.pid ?? 0);
  const runtime = join(git(worktree, 'rev-parse', '--absolute-git-dir').trim(), 'ralph');
  mkdirSync(join(runtime, 'loop.lock'), { recursive: true });
  writeFileSync(join(runtime, 'loop.pid'), JSON.stringify({ pid, started_at: new Date().toISOString(), host: hostname() }));
  return holder;
}

const gone = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe('ralph queue run right after an interrupted run', () => {
  it('an item whose worktree is still locked by the earlier run’s ending loop waits for it, then runs and completes', async () => {
    const project = queueProject({ 'README.md': '# project\n', '.gitignore': '.ralph/\n' });
    await addTasks(project, ['>>alpha :: verify:"test -f alpha.txt"']);
    // What a run killed by a second Ctrl+C leaves: t1 running for a run that is gone, its worktree and branch made.
    const worktree = join(project, '.ralph', 'worktrees', 't1');
    git(project, 'worktree', 'add', '-q', '-b', 'ralph/t1', worktree);
    const deadRun = spawn('true');
    await gone(deadRun);
    const queueFile = join(project, '.ralph', 'queue.json');
    const doc = JSON.parse(readFileSync(queueFile, 'utf8')) as { items: Record<string, unknown>[] };
    doc.items[0] = { ...doc.items[0], state: 'running', owner: { pid: deadRun.pid, host: hostname() }, branch: 'ralph/t1', worktree: '.ralph/worktrees/t1' };
    writeFileSync(queueFile, JSON.stringify(doc));
    const holder = holdLoopLock(worktree);

    const run = queueCli(['run', ...mockFlags(writeItemScript([{ trigger: 'alpha', files: { 'alpha.txt': 'alpha\n' } }]))], project);
    track(run.pid ?? 0);
    let stderr = '';
    run.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let ended = false;
    void run.finally(() => (ended = true)).catch(() => undefined);
    await waitFor(() => stderr.includes('waiting for it to end') || ended, 'the run to wait for the earlier loop', 30_000);
    expect(stderr).toContain(`t1: the loop of an earlier run (process ${holder.pid}) still holds its worktree; waiting for it to end before its loop starts`);
    expect(queueItems(project)[0]?.state).toBe('running');

    holder.kill('SIGKILL');
    await gone(holder);
    const result = await run;
    expect(result.exitCode, stderr).toBe(0);
    expect(stderr).not.toContain('Another Ralph loop');
    expect(queueItems(project).map((item) => [item.id, item.state])).toEqual([['t1', 'completed']]);
    expect(git(project, 'show', 'ralph/t1:alpha.txt')).toBe('alpha\n');
  });

  it('a holder that does not end in time makes the wait give up as busy (the run puts the item back to pending), and a gone one lets it go on', async () => {
    const project = queueProject({ 'README.md': '# project\n' });
    const worktree = join(project, '.ralph', 'worktrees', 't1');
    mkdirSync(join(project, '.ralph'), { recursive: true });
    git(project, 'worktree', 'add', '-q', '-b', 'ralph/t1', worktree);
    const holder = holdLoopLock(worktree);
    const said: string[] = [];
    const waited = await waitForPreviousLoop(worktree, { signal: new AbortController().signal, timeoutMs: 200, pollMs: 20, onWait: (why) => said.push(why) });
    expect(waited).toEqual({ kind: 'busy', why: `the loop of an earlier run (process ${holder.pid}) still holds its worktree` });
    expect(said).toHaveLength(1);
    holder.kill('SIGKILL');
    await gone(holder);
    expect(await waitForPreviousLoop(worktree, { signal: new AbortController().signal, timeoutMs: 200, onWait: (why) => said.push(why) })).toEqual({
      kind: 'gone',
    });
  });
});
